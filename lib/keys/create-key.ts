import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "@/lib/db/schema/keys";
import { mailboxes } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { newId } from "@/lib/ids";
import { allScopes } from "@/lib/keys/scopes";
import { generateKeySecret } from "@/lib/keys/key-format";

export const createKeyInput = z
  .object({
    name: z.string().trim().min(1, "name is required").max(100),
    scopes: z
      .array(z.enum(allScopes as [string, ...string[]]))
      .min(1, "choose at least one scope")
      .transform((s) => [...new Set(s)]),
    /** Restricts the key's mailbox tools to this mailbox (`mbx_…`); omitted or null: every mailbox of the project. */
    mailbox_id: z.string().min(1).max(100).nullish(),
  })
  .strict();
export type CreateKeyInput = z.infer<typeof createKeyInput>;

/** The secret is returned once and never stored. */
export async function createKey(tx: Executor, opts: { actor: Actor } & CreateKeyInput) {
  if (opts.mailbox_id) await requireLiveMailbox(tx, opts.actor.projectId, opts.mailbox_id);
  const { secret, hash, prefix } = generateKeySecret();
  const [row] = await tx
    .insert(apiKeys)
    .values({
      id: newId("key"),
      projectId: opts.actor.projectId,
      name: opts.name,
      prefix,
      hash,
      scopes: opts.scopes,
      mailboxId: opts.mailbox_id ?? null,
      createdBy: opts.actor.id,
    })
    .returning();
  return { key: row, secret };
}

/**
 * A restriction to a mailbox that is not a live mailbox of this project would make a key that can reach nothing
 * (or, for another project's mailbox, one whose restriction names a mailbox it can never see): refused up front.
 */
async function requireLiveMailbox(tx: Executor, projectId: string, mailboxId: string): Promise<void> {
  const [row] = await tx
    .select({ id: mailboxes.id })
    .from(mailboxes)
    .where(and(eq(mailboxes.id, mailboxId), eq(mailboxes.projectId, projectId), isNull(mailboxes.deletedAt)))
    .limit(1);
  if (!row)
    throw fieldError(
      "mailbox_id",
      "is not a mailbox of this project",
      "Pick a mailbox from the Mailboxes screen (an mbx_… id), or omit mailbox_id for all mailboxes.",
    );
}
