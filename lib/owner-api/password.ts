import { z } from "zod";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { CHANGE_PASSWORD_OP, changePassword, changePasswordInput } from "@/lib/owners/change-password";

/**
 * Settings → Password over owner REST: the dashboard's domain function and op, the same rules for the new password
 * (changePasswordInput's), and never a password in the ledger, not even as a digest. The dashboard form's repeated
 * new password is the form's business; a script sends it once.
 */
export const changePasswordRoute = defineOwnerRoute({
  name: "owner_password_change",
  description:
    "Changes the owner's password: `current_password` must be the one in use, `new_password` at least 10 characters. Every dashboard session ends, except the one whose cookie made this call; HTTP Basic takes the new password from the next request.",
  input: z.object({ current_password: changePasswordInput.shape.current, new_password: changePasswordInput.shape.next }).strict(),
  output: z.object({ changed: z.literal(true), ended_sessions: z.number().int() }),
  rest: { method: "PUT", path: "/owner/password" },
  op: CHANGE_PASSWORD_OP,
  ledgerInput: () => ({}),
  handler: async (ctx, input) => {
    ctx.subject = ctx.owner.id;
    const { endedSessions } = await changePassword(ctx.db, {
      ownerId: ctx.owner.id,
      sessionId: ctx.sessionId,
      current: input.current_password,
      next: input.new_password,
      currentField: "current_password",
    });
    return { changed: true as const, ended_sessions: endedSessions };
  },
});
