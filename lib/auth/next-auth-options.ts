import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { checkOwnerPassword } from "@/lib/owners/find-owner";
import { revokeOwnerSession, SESSION_TTL_S, startOwnerSession } from "@/lib/owners/owner-sessions";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { chargeAuthAttempt } from "@/lib/http/auth-throttle";
import { passwordGuesses } from "@/lib/auth/authenticate-owner";
import { clientIp } from "@/lib/http/request-info";

/**
 * Credentials sign-in with JWT cookies (next-auth 4 requires JWT for credentials). Each sign-in also creates an
 * owner_sessions row whose id rides in the JWT: the dashboard checks that row on every request, so an owner can
 * see and revoke sessions.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: nextAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_TTL_S },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const headers = (req?.headers ?? {}) as Record<string, string | undefined>;
          // As every other credential check: behind TRUST_PROXY the client's address, not the proxy's (one
          // address for everyone, so anyone's 20 wrong passwords a minute locked the owner out).
          const ip = clientIp({ headers: { get: (name) => headers[name.toLowerCase()] ?? null } });
          // Counted before argon2id runs, refunded if right: sign-ins sent at once are held to the limit too.
          const refund = chargeAuthAttempt(passwordGuesses(ip));
          const db = await getDb();
          const owner = await checkOwnerPassword(db, credentials?.email ?? "", credentials?.password ?? "");
          if (!owner) return null;
          refund();
          const session = await startOwnerSession(db, { ownerId: owner.id, userAgent: headers["user-agent"], ip });
          return { id: owner.id, email: owner.email, sid: session.id };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sid = (user as { sid?: string }).sid;
        return token;
      },
      session({ session, token }) {
        return { ...session, sid: token.sid, ownerId: token.sub };
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.sid && token.sub) {
          await revokeOwnerSession(await getDb(), { ownerId: token.sub, sessionId: String(token.sid) });
        }
      },
    },
  };
}
