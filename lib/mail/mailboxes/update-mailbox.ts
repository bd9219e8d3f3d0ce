import { and, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, type Mailbox } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { metadataProblems } from "@/lib/mail/mailboxes/create-mailbox-fields";
import { forgetRecipients } from "@/lib/mail/inbound/recipient-cache";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";

export interface UpdateMailboxInput {
  inboxId: string;
  displayName?: string | null;
  status?: "active" | "disabled";
  /** Merged: a null value removes its key; null clears everything. */
  metadata?: Record<string, string | number | boolean | null> | null;
}

/**
 * update_inbox: display name, status and metadata; an omitted field stays as it is. The send policy is the owner's
 * and is not here. The row is locked while the metadata is merged, so two concurrent merges both land.
 */
export async function updateMailbox(db: Executor, opts: { actor: Actor } & UpdateMailboxInput): Promise<Mailbox> {
  const found = await findMailbox(db, opts.actor, opts.inboxId);
  const [current] = await db
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.id, found.id), eq(mailboxes.projectId, opts.actor.projectId), isNull(mailboxes.deletedAt)))
    .for("update");
  // Deleted between the two reads: the same answer as a missing inbox.
  if (!current) return findMailbox(db, opts.actor, opts.inboxId);
  const [row] = await db
    .update(mailboxes)
    .set({
      updatedAt: sql`now()`,
      ...(opts.displayName !== undefined ? { displayName: opts.displayName } : {}),
      ...(opts.status !== undefined ? { status: opts.status } : {}),
      ...(opts.metadata !== undefined ? { metadata: mergeMetadata(current.metadata, opts.metadata) } : {}),
    })
    .where(eq(mailboxes.id, current.id))
    .returning();
  // A disabled mailbox refuses mail at RCPT from this commit on, not when the listener's cache expires.
  if (opts.status !== undefined) forgetRecipients(db);
  return row;
}

function mergeMetadata(current: Mailbox["metadata"], patch: UpdateMailboxInput["metadata"]): Mailbox["metadata"] {
  if (patch === null || patch === undefined) return {};
  const merged: Mailbox["metadata"] = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const [problem] = metadataProblems(merged);
  if (problem) throw fieldError(`metadata.${problem.key}`, `${problem.message} (after merging with the stored metadata)`);
  return merged;
}
