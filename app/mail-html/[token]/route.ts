import { serveMailHtml } from "@/lib/mail/http/serve-mail-html";

/** The HTML of a received message, behind a signed URL from inbox_claim (lib/mail/email-event-links.ts). */
export const GET = serveMailHtml;
export const HEAD = serveMailHtml;
