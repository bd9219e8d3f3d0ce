import { and, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { type Mailbox, mailboxes, type sendPolicies } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";

export const SET_SEND_POLICY_OP = "mail.set_send_policy";
export type SendPolicy = (typeof sendPolicies)[number];

/**
 * The owner's send policy for one mailbox (design D8): `direct`, `approval` or `read_only`. Only an owner may set
 * it: a key that could lift its own mailbox's `approval` would make the hold worthless. Drafts already held stay
 * held; the policy decides what later sends do.
 */
export async function setSendPolicy(db: Executor, o: { actor: Actor; inboxId: string; sendPolicy: SendPolicy }): Promise<Mailbox> {
  if (o.actor.type !== "owner") {
    throw new AppError("missing_permission", "Only the owner can set a mailbox's send policy.", { fix: "Ask the owner to change it in the dashboard." });
  }
  const found = await findMailbox(db, o.actor, o.inboxId);
  const [row] = await db
    .update(mailboxes)
    .set({ sendPolicy: o.sendPolicy, updatedAt: sql`now()` })
    .where(and(eq(mailboxes.projectId, o.actor.projectId), eq(mailboxes.id, found.id), isNull(mailboxes.deletedAt)))
    .returning();
  // Deleted between the lookup and the update: the same answer as a missing inbox.
  return row ?? findMailbox(db, o.actor, o.inboxId);
}
