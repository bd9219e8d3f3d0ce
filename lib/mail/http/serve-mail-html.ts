import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { MAIL_HTML_PREFIX, readMailHtmlToken } from "@/lib/mail/http/mail-html-url";
import { inlineCidImages } from "@/lib/mail/http/inline-cid-images";
import { sanitizeMailHtml } from "@/lib/mail/http/sanitize-mail-html";

/**
 * No scripts, forms, frames, fonts or connections; inline styles; images only inline (data:) unless the token is
 * the "Load images" variant. Links may open in a new tab (allow-popups), outside the sandbox, never with scripts here.
 */
const csp = (images: boolean) =>
  `sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:${images ? " https: http:" : ""}; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;

/**
 * GET /mail-html/<token>: the HTML body of a stored message or draft. Third-party HTML in Brynth's origin is dangerous, so
 * it is sanitised (sanitize-mail-html.ts) and served under a CSP sandbox with no scripts, no forms and no remote
 * loads (inline styles and data: images only, remote images with the images variant), never sniffed, never cached,
 * never sending a Referer.
 */
export async function serveMailHtml(req: ApiRequest): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return errorResponse(new AppError("method_not_allowed", "Use GET.", { headers: { Allow: "GET, HEAD" } }));
  }
  const token = new URL(req.url).pathname.slice(MAIL_HTML_PREFIX.length);
  const claim = readMailHtmlToken(token);
  const gone = () => new Response("This link has expired or is not valid.", { status: 410, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (!claim) return gone();
  const db = await getDb();
  // A draft's HTML too (`drf_…`): the Drafts screen shows exactly what an approval would send, framed like mail.
  const [row] = claim.messageId.startsWith("drf_")
    ? await db
        .select({ html: mailDrafts.html, extractedHtml: mailDrafts.html })
        .from(mailDrafts)
        .where(and(eq(mailDrafts.id, claim.messageId), eq(mailDrafts.projectId, claim.projectId)))
    : await db
        .select({ html: mailMessages.html, extractedHtml: mailMessages.extractedHtml })
        .from(mailMessages)
        .where(and(eq(mailMessages.id, claim.messageId), eq(mailMessages.projectId, claim.projectId)));
  const html = claim.extracted ? (row?.extractedHtml ?? row?.html) : row?.html;
  if (!html) return gone();
  const body = req.method === "HEAD" ? null : await inlineCidImages(db, claim, sanitizeMailHtml(html).html);
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp(claim.images),
      "x-content-type-options": "nosniff",
      // The dashboard frames it (sandboxed); every other response is DENY.
      "x-frame-options": "SAMEORIGIN",
      "referrer-policy": "no-referrer",
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
    },
  });
}
