"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { END_SESSION_OP, endOwnerSession } from "@/lib/owners/end-owner-session";

const revoke = ownerAction(
  z.object({ sessionId: z.string().min(1).max(100) }),
  async (ctx, input) => {
    ctx.subject = input.sessionId;
    await endOwnerSession(ctx.db, { actor: ctx.actor, sessionId: input.sessionId });
    return { self: input.sessionId === ctx.sessionId };
  },
  { op: END_SESSION_OP },
);

/** Revoking this browser's own session signs it out: its cookie goes too, and the page sends it to sign-in. */
export async function revokeSessionAction(input: { sessionId: string }) {
  const res = await revoke(input);
  if (res.ok && res.data.self) {
    const jar = await cookies();
    for (const name of ["next-auth.session-token", "__Secure-next-auth.session-token"]) jar.delete(name);
  }
  return res;
}
