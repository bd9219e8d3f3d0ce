import type { IncomingMessage } from "node:http";
import { requestHost } from "@/lib/http/host-check";
import { isTrustedOrigin } from "@/lib/settings/remote-access";

/**
 * A Next server action (a POST with `Next-Action`) sent from a page of another origin: refused with 403 before Next
 * sees it, which would answer 500 ("Invalid Server Actions request"). Same origin means one of ours (the public URL's,
 * PUBLIC_URL's, or an allowed origin of Settings → Remote access and ALLOWED_ORIGINS), or the
 * host the request was sent to (already checked against the names we serve, host-check.ts; X-Forwarded-Host only
 * behind a trusted proxy, as there). A request without Origin is no browser's cross-site one: Next lets it through.
 */
export function isForeignServerAction(req: IncomingMessage): boolean {
  if (req.method !== "POST" || req.headers["next-action"] === undefined) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  if (isTrustedOrigin(origin)) return false;
  const host = requestHost(req.headers);
  try {
    return !host || new URL(origin).host !== host.toLowerCase();
  } catch {
    return true; // "null" (a sandboxed frame, a file) or garbage
  }
}

export const FOREIGN_ACTION_BODY = "Forbidden: a server action from another origin is refused.\n";
