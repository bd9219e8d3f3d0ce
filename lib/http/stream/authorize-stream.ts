import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { authenticateOwner, readCookie } from "@/lib/auth/authenticate-owner";
import type { ApiRequest } from "@/lib/http/api-request";
import { clientIp, isAllowedOrigin } from "@/lib/http/request-info";
import { authenticateKey } from "@/lib/keys/authenticate-key";
import type { Scope } from "@/lib/keys/scopes";
import { ownerActor } from "@/lib/owner-api/owner-actor";

/** Same cookie as lib/auth/current-owner.ts (not imported: that module needs Next's request scope). */
const PROJECT_COOKIE = "brynth_project";

/**
 * The project a live stream is for, the one check of every stream (SSE and WebSocket): an API key's own project when
 * the key holds `scope`, or the owner's (session cookie or HTTP Basic, as owner REST) project named by
 * X-Brynth-Project as owner REST names it, else by `?project=` (EventSource cannot send headers), else the
 * dashboard's current project cookie, else the owner's first.
 */
export async function authorizeStream(req: ApiRequest, scope: Scope, what: string): Promise<string> {
  if (req.method !== "GET") throw new AppError("method_not_allowed", "The stream is read with GET.");
  if (!isAllowedOrigin(req.headers.get("origin"))) throw new AppError("forbidden", "Origin not allowed.");
  const authorization = req.headers.get("authorization");
  if (authorization?.toLowerCase().startsWith("bearer ")) {
    const key = await authenticateKey(authorization, clientIp(req));
    if (!key.scopes.includes(scope)) {
      throw new AppError("missing_permission", `${what} needs the ${scope} scope.`, {
        fix: `Use a key with the scope \`${scope}\` (API keys screen).`,
      });
    }
    return key.projectId;
  }
  const { owner } = await authenticateOwner(req);
  const wanted = req.headers.get("x-brynth-project") ?? new URL(req.url).searchParams.get("project") ?? readCookie(req.headers.get("cookie"), PROJECT_COOKIE);
  return (await ownerActor(await getDb(), owner, wanted, "dashboard")).projectId;
}
