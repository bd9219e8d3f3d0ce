/** Escapes text for HTML content and quoted attribute values (email bodies, Telegram's HTML parse mode). */
export const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
