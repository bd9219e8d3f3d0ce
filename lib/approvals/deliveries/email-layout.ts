import { escapeHtml } from "@/lib/text/escape-html";

/** A plain, client-safe HTML email: inline styles only, no images or remote content. */
export function emailLayout(body: string, footer: string): string {
  return `<!doctype html><html><body style="margin:0;padding:24px;background:#f6f6f6;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#111">
<div style="max-width:560px;margin:0 auto;background:#fff;border:1px solid #e5e5e5;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;font-size:12px;color:#888;letter-spacing:.04em;text-transform:uppercase">Brynth</p>
${body}
<p style="margin:24px 0 0;font-size:12px;color:#888">${escapeHtml(footer)}</p>
</div></body></html>`;
}

export const emailButton = (url: string, label: string) =>
  `<p style="margin:0"><a href="${escapeHtml(url)}" style="display:inline-block;background:#111;color:#fff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600">${escapeHtml(label)}</a></p>`;
