import { decode } from "next-auth/jwt";
import { getDb } from "@/lib/db/client";
import type { Owner } from "@/lib/db/schema/owners";
import { AppError } from "@/lib/errors";
import { chargeAuthAttempt, checkAuthThrottle, noteAuthFailure } from "@/lib/http/auth-throttle";
import { clientIp } from "@/lib/http/request-info";
import { ownerBasicCache } from "@/lib/auth/owner-basic-cache";
import { liveSessionOwner } from "@/lib/owners/owner-sessions";
import { nextAuthSecret } from "@/lib/auth/auth-secret";

const COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** A cookie's value; one that is not valid percent-encoding is no credential (absent), never a server error. */
export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join("="));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The owner behind a dashboard JWT cookie value, if its session row is live. */
export async function ownerFromSessionToken(token: string | undefined): Promise<{ owner: Owner; sessionId: string } | null> {
  if (!token) return null;
  const jwt = await decode({ token, secret: nextAuthSecret() }).catch(() => null);
  if (!jwt?.sid) return null;
  const live = await liveSessionOwner(await getDb(), String(jwt.sid));
  return live ? { owner: live.owner, sessionId: live.session.id } : null;
}

/**
 * The one allowance of owner-password guesses per client address (AUTH_FAILURES_PER_MINUTE), whichever door they
 * knock at: HTTP Basic on the API and the dashboard's sign-in form each had their own, twice the guesses.
 */
export const passwordGuesses = (ip: string) => `owner-password:${ip}`;

const BASIC = /^basic\s+/i;

/**
 * Whether an Authorization header is HTTP Basic: the one test every caller makes (`Basic` then any white space), so
 * the request the cookie's Origin check lets through as Basic (owner-principal.ts) is the one verified as Basic here.
 */
export const isBasicAuth = (authorization: string | null): boolean => BASIC.test(authorization ?? "");

/**
 * Owner REST accepts the dashboard session cookie or HTTP Basic with the owner's email and password, so an
 * instance can be set up from a script. API keys are never accepted here. Basic credentials verified within the
 * last minute skip argon2id (lib/auth/owner-basic-cache.ts).
 */
export async function authenticateOwner(req: { headers: Pick<Headers, "get"> }): Promise<{ owner: Owner; sessionId: string | null }> {
  const auth = req.headers.get("authorization") ?? "";
  if (isBasicAuth(auth)) {
    const ip = clientIp(req);
    checkAuthThrottle(passwordGuesses(ip));
    const decoded = Buffer.from(auth.replace(BASIC, ""), "base64").toString("utf8");
    const sep = decoded.indexOf(":");
    if (sep <= 0) {
      noteAuthFailure(passwordGuesses(ip));
      throw ownerUnauthorized();
    }
    // A password checked afresh (argon2id) is counted as a failure before it runs, refunded if right.
    const owner = await ownerBasicCache.check(await getDb(), decoded.slice(0, sep), decoded.slice(sep + 1), () => chargeAuthAttempt(passwordGuesses(ip)));
    if (!owner) throw ownerUnauthorized();
    return { owner, sessionId: null };
  }
  const cookie = req.headers.get("cookie");
  for (const name of COOKIE_NAMES) {
    const found = await ownerFromSessionToken(readCookie(cookie, name));
    if (found) return found;
  }
  throw ownerUnauthorized();
}

const ownerUnauthorized = () =>
  new AppError("unauthorized", "This operation is for the instance owner.", {
    fix: "Sign in to the dashboard, or send HTTP Basic credentials of the owner (OWNER_EMAIL / OWNER_PASSWORD). API keys are not accepted here.",
  });
