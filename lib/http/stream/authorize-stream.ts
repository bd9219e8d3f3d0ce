import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { readCookie } from "@/lib/auth/authenticate-owner";
import { authenticateOwnerRequest } from "@/lib/auth/owner-principal";
import type { ApiRequest } from "@/lib/http/api-request";
import type { StreamActor } from "@/lib/auth/credential-ends";
import { refuseQueryCredentials } from "@/lib/http/query-credentials";
import { clientIp, isAllowedOrigin } from "@/lib/http/request-info";
import { authenticateKey } from "@/lib/keys/authenticate-key";
import { keyActor } from "@/lib/keys/key-actor";
import { restrictionDeleted } from "@/lib/keys/key-restrictions";
import type { Scope } from "@/lib/keys/scopes";
import { ownerActor } from "@/lib/owner-api/owner-actor";

/** Same cookie as lib/auth/current-owner.ts (not imported: that module needs Next's request scope). */
const PROJECT_COOKIE = "brynth_project";

/**
 * Who reads a live stream, the one check of every stream (SSE and WebSocket): an API key holding at least one of
 * `scopes` (its actor carries its scopes and mailbox restriction), or the owner (session cookie or HTTP Basic, as
 * owner REST) in the project named by X-Brynth-Project as owner REST names it, else by `?project=` (EventSource
 * cannot send headers), else the dashboard's current project cookie, else the owner's first. With the dashboard
 * session it came with, so the stream ends with that session (credential-ends.ts). `what` names the stream in the
 * errors ("the live stream").
 */
export async function streamActor(req: ApiRequest, scopes: readonly Scope[], what: string): Promise<StreamActor> {
  if (req.method !== "GET") throw new AppError("method_not_allowed", "The stream is read with GET.");
  if (!isAllowedOrigin(req.headers.get("origin"))) throw new AppError("forbidden", "Origin not allowed.");
  refuseQueryCredentials(req.url);
  const query = new URL(req.url).searchParams;
  const authorization = req.headers.get("authorization");
  if (authorization?.toLowerCase().startsWith("bearer ")) {
    const key = await authenticateKey(authorization, clientIp(req));
    if (!scopes.some((s) => key.scopes.includes(s))) {
      const names = scopes.map((s) => `\`${s}\``).join(" or ");
      throw new AppError("missing_permission", `Reading ${what} needs the ${names} scope.`, {
        fix: `Use a key with the scope ${names} (API keys screen).`,
      });
    }
    if (key.mailboxDeleted) throw restrictionDeleted(what);
    return { ...keyActor(key, req.headers, "rest"), ownerSessionId: null };
  }
  // With the cookie, only from our own origins (authenticateOwnerRequest): the loopback pages isAllowedOrigin admits
  // for keys are other sites' pages as far as the owner's cookie is concerned, and a WebSocket has no CORS to stop them.
  const { owner, sessionId } = await authenticateOwnerRequest(req, what);
  const wanted = req.headers.get("x-brynth-project") ?? query.get("project") ?? readCookie(req.headers.get("cookie"), PROJECT_COOKIE);
  return { ...(await ownerActor(await getDb(), owner, wanted, "dashboard")), ownerSessionId: sessionId };
}
