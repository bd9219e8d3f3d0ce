import type { Actor } from "@/lib/actor";
import { authenticateOwner, isBasicAuth, readCookie } from "@/lib/auth/authenticate-owner";
import { getDb } from "@/lib/db/client";
import type { Owner } from "@/lib/db/schema/owners";
import { AppError } from "@/lib/errors";
import { corsOrigin } from "@/lib/http/cors";
import { allScopes } from "@/lib/keys/scopes";
import { ownerActor } from "@/lib/owner-api/owner-actor";

type Req = { headers: Pick<Headers, "get"> };

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** Whether the request carries the owner's own credential: HTTP Basic, or (without any Authorization) a session cookie. */
export function carriesOwnerCredential(req: Req): boolean {
  const authorization = req.headers.get("authorization");
  if (authorization) return isBasicAuth(authorization);
  const cookie = req.headers.get("cookie");
  return SESSION_COOKIES.some((name) => readCookie(cookie, name) !== undefined);
}

/**
 * The owner's credentials on an API route (owner REST, tool REST, /mcp): HTTP Basic, or the dashboard's session
 * cookie. A browser attaches the cookie to requests another site's page makes, so with the cookie the request must
 * come from one of our own origins: an Origin we serve (not merely loopback, isAllowedOrigin's rule for keys, which a
 * page cannot attach), or, without an Origin, a Sec-Fetch-Site saying the browser sent it from this origin or from
 * the user's own hand. Basic is never attached by a browser on its own (we never challenge with it).
 */
export async function authenticateOwnerRequest(req: Req, where: string): Promise<{ owner: Owner; sessionId: string | null }> {
  if (!isBasicAuth(req.headers.get("authorization"))) {
    const origin = req.headers.get("origin");
    const site = req.headers.get("sec-fetch-site");
    const sameOrigin = origin ? corsOrigin(origin) !== null : site === null || site === "same-origin" || site === "none";
    if (!sameOrigin) {
      throw new AppError("forbidden", `The owner's session cookie is accepted on ${where} only from this instance's own origin.`, {
        fix: "Call from the dashboard's own origin, or send the owner's HTTP Basic credentials from a script.",
      });
    }
  }
  return authenticateOwner(req);
}

/**
 * The owner acting on a tool (REST or /mcp): on the project named by X-Brynth-Project, else their first, with every
 * scope and no mailbox restriction, as in the dashboard (no owner-only action is a tool). A project the header names
 * that is not the owner's (unknown, or another owner's) is a 404 that names the header, never a hint which it was.
 */
export async function ownerPrincipal(req: Req, via: Actor["via"], where: string): Promise<{ owner: Owner; sessionId: string | null; actor: Actor }> {
  const { owner, sessionId } = await authenticateOwnerRequest(req, where);
  const header = req.headers.get("x-brynth-project");
  const actor = await ownerActor(await getDb(), owner, header, via).catch((err: unknown) => {
    if (!header || !(err instanceof AppError) || err.code !== "NOT_FOUND") throw err;
    throw new AppError("NOT_FOUND", `X-Brynth-Project names ${JSON.stringify(header)}, which is not one of your projects.`, {
      fix: "Send the id of one of your projects (GET /api/v1/projects lists them) as X-Brynth-Project, or leave the header out for your first project.",
      details: { header: "X-Brynth-Project" },
    });
  });
  return { owner, sessionId, actor: { ...actor, scopes: allScopes, mailboxId: null, ownerSessionId: sessionId } };
}
