import { z } from "zod";
import { END_SESSION_OP, endOwnerSession } from "@/lib/owners/end-owner-session";
import { listOwnerSessions } from "@/lib/owners/owner-sessions";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** Settings → Sessions over owner REST: the owner's signed-in browsers, and ending one (as the dashboard does). */

export const listSessionsRoute = defineOwnerRoute({
  name: "owner_sessions_list",
  description: "Lists the owner's live dashboard sessions (browser, address, last seen). HTTP Basic calls open none.",
  input: z.object({}).strict(),
  output: z.object({
    sessions: z.array(
      z.object({
        id: z.string(),
        user_agent: z.string().nullable(),
        ip: z.string().nullable(),
        created_at: z.string(),
        last_seen_at: z.string(),
        expires_at: z.string(),
      }),
    ),
  }),
  rest: { method: "GET", path: "/owner/sessions" },
  handler: async (ctx) => ({
    sessions: (await listOwnerSessions(ctx.db, ctx.owner.id)).map((s) => ({
      id: s.id,
      user_agent: s.userAgent,
      ip: s.ip,
      created_at: s.createdAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
    })),
  }),
});

export const endSessionRoute = defineOwnerRoute({
  name: "owner_sessions_end",
  description: "Ends one dashboard session: its cookie stops working on the next request, on every instance.",
  input: z.object({ session_id: z.string().min(1).max(100) }).strict(),
  output: z.object({ id: z.string(), ended: z.literal(true) }),
  rest: { method: "DELETE", path: "/owner/sessions/{session_id}" },
  op: END_SESSION_OP,
  handler: async (ctx, input) => {
    ctx.subject = input.session_id;
    await endOwnerSession(ctx.db, { actor: ctx.actor, sessionId: input.session_id });
    return { id: input.session_id, ended: true as const };
  },
});
