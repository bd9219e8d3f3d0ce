import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { requestHost } from "@/lib/http/host-check";
import { errorResponse } from "@/lib/http/json-response";
import { attachmentResponse } from "@/lib/mail/attachments/attachment-response";
import { readAttachmentToken } from "@/lib/mail/attachments/attachment-url";
import { grantedAttachment } from "@/lib/mail/attachments/issuer-grant";

/** 410 says "ask again" (get_attachment gives a fresh URL); it names no reason, so a holder learns nothing. */
const gone = () =>
  new Response("This attachment link has expired or is no longer valid. Call get_attachment again for a new one.", {
    status: 410,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });

/**
 * GET /mail-attachment/<token>: get_attachment's capability, which needs no bearer (mailbox spec "Not available over
 * MCP"). Served only on the origin it was issued for (another Host, or a page of another Origin fetching it → 403),
 * within five minutes, and only while the issuing key may still read the attachment's mailbox (else 410, no bytes).
 * The token is in the path and never written to any log here; errors carry no part of it.
 */
export async function serveMailAttachment(req: ApiRequest, token: string, now = new Date()): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return errorResponse(new AppError("method_not_allowed", "Use GET.", { headers: { Allow: "GET, HEAD" } }));
  }
  const claim = readAttachmentToken(token, now);
  if (!claim) return gone();
  const issued = new URL(claim.origin);
  const origin = req.headers.get("origin");
  const host = requestHost(req.headers)?.toLowerCase() ?? null;
  if ((host !== null && host !== issued.host) || (origin !== null && origin !== claim.origin)) {
    return errorResponse(
      new AppError("forbidden", "This attachment link belongs to another origin.", { fix: `Open it at ${claim.origin}, the address it was issued for.` }),
      { "cache-control": "no-store" },
    );
  }
  const granted = await grantedAttachment(await getDb(), claim);
  if (!granted) return gone();
  try {
    return await attachmentResponse(granted, req.method);
  } catch {
    return gone();
  }
}
