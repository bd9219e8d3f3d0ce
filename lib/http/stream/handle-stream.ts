import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { readCookie, authenticateOwner } from "@/lib/auth/authenticate-owner";
import { onEventChange } from "@/lib/events/events-channel";
import { sseResponse } from "@/lib/http/stream/sse-response";
import { clientIp, isAllowedOrigin } from "@/lib/http/request-info";
import { authenticateKey } from "@/lib/keys/authenticate-key";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { errorResponse } from "@/lib/http/json-response";

/** Same cookie as lib/auth/current-owner.ts (not imported: that module needs Next's request scope). */
const PROJECT_COOKIE = "brynth_project";

/** The project a stream is for: an API key's own (it needs inbox:read), or the signed-in owner's current one. */
async function streamProject(req: Request, url: URL): Promise<string> {
  const authorization = req.headers.get("authorization");
  if (authorization?.toLowerCase().startsWith("bearer ")) {
    const key = await authenticateKey(authorization, clientIp(req));
    if (!key.scopes.includes("inbox:read")) {
      throw new AppError("missing_permission", "The event stream needs the inbox:read scope.", {
        fix: "Use a key with the scope `inbox:read` (API keys screen).",
      });
    }
    return key.projectId;
  }
  const { owner } = await authenticateOwner(req);
  const wanted =
    url.searchParams.get("project") ?? req.headers.get("x-brynth-project") ?? readCookie(req.headers.get("cookie"), PROJECT_COOKIE);
  return (await ownerActor(await getDb(), owner, wanted, "dashboard")).projectId;
}

/**
 * `GET /api/v1/stream` as Server-Sent Events: one `event` message per event change in the project (id, source,
 * type, status; never payloads), fanned out from the process's single LISTEN. Browsers use EventSource with the
 * dashboard cookie; scripts and curl use an API key.
 */
export async function handleStream(req: Request): Promise<Response> {
  try {
    if (req.method !== "GET") throw new AppError("method_not_allowed", "The stream is read with GET.");
    if (!isAllowedOrigin(req.headers.get("origin"))) throw new AppError("forbidden", "Origin not allowed.");
    const projectId = await streamProject(req, new URL(req.url));
    return sseResponse(req.signal, (send) =>
      onEventChange((c) => {
        if (c.project === projectId) send("event", { id: c.id, source: c.source, type: c.type, status: c.status });
      }),
    );
  } catch (err) {
    return errorResponse(err);
  }
}
