import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { MAIL_HTML_PREFIX, readMailHtmlToken } from "@/lib/mail/http/mail-html-url";

/**
 * GET /mail-html/<token>: the HTML body of a received message. Third-party HTML in Brynth's origin is dangerous, so
 * it is served under a CSP sandbox with no scripts, no forms and no remote loads (inline styles and data: images
 * only), never sniffed, never cached, never sending a Referer.
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
  const [row] = await db
    .select({ html: mailMessages.html })
    .from(mailMessages)
    .where(and(eq(mailMessages.id, claim.messageId), eq(mailMessages.projectId, claim.projectId)));
  if (!row?.html) return gone();
  return new Response(req.method === "HEAD" ? null : row.html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
    },
  });
}
