import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { authenticateOwner, readCookie } from "@/lib/auth/authenticate-owner";
import { clientIp, isAllowedOrigin } from "@/lib/http/request-info";
import { authenticateKey } from "@/lib/keys/authenticate-key";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { onRequestChange } from "@/lib/approvals/requests-channel";
import { sseResponse } from "@/lib/http/stream/sse-response";
import { errorResponse } from "@/lib/http/json-response";

export const APPROVALS_STREAM_PATH = "/api/v1/approvals/stream";
/** Same cookie as lib/auth/current-owner.ts (not imported: that module needs Next's request scope). */
const PROJECT_COOKIE = "brynth_project";

async function streamProject(req: Request): Promise<string> {
  const authorization = req.headers.get("authorization");
  if (authorization?.toLowerCase().startsWith("bearer ")) {
    const key = await authenticateKey(authorization, clientIp(req));
    if (!key.scopes.includes("approvals")) {
      throw new AppError("missing_permission", "The approvals stream needs the approvals scope.", { fix: "Use a key with the scope `approvals`." });
    }
    return key.projectId;
  }
  const { owner } = await authenticateOwner(req);
  const wanted = new URL(req.url).searchParams.get("project") ?? readCookie(req.headers.get("cookie"), PROJECT_COOKIE);
  return (await ownerActor(await getDb(), owner, wanted, "dashboard")).projectId;
}

/**
 * `GET /api/v1/approvals/stream`, Server-Sent Events: one `request` message per request created or decided in the
 * project (id and status only), fanned out from the process's one LISTEN. The Approvals screen refreshes on it.
 */
export async function handleApprovalsStream(req: Request): Promise<Response> {
  try {
    if (req.method !== "GET") throw new AppError("method_not_allowed", "The stream is read with GET.");
    if (!isAllowedOrigin(req.headers.get("origin"))) throw new AppError("forbidden", "Origin not allowed.");
    const projectId = await streamProject(req);
    return sseResponse(req.signal, (send) =>
      onRequestChange((c) => {
        if (c.project === projectId) send("request", { id: c.id, status: c.status });
      }),
    );
  } catch (err) {
    return errorResponse(err);
  }
}
