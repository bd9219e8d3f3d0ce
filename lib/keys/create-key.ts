import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { asciiAddress } from "@/lib/mail/domains/mail-domain-name";
import { liveMailboxByAddress, liveMailboxById } from "@/lib/mail/mailboxes/statements";
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
    /** Restricts the key's mailbox tools to this mailbox (`mbx_…`, or its address); omitted or null: every mailbox of the project. */
    mailbox_id: z.string().min(1).max(320).nullish().describe("A live mailbox of the project, by id (`mbx_…`) or address; omitted or null: every mailbox."),
  })
  .strict();
export type CreateKeyInput = z.infer<typeof createKeyInput>;

/** The secret is returned once and never stored. */
export async function createKey(tx: Executor, opts: { actor: Actor } & CreateKeyInput) {
  const mailboxId = opts.mailbox_id ? await requireLiveMailbox(tx, opts.actor.projectId, opts.mailbox_id) : null;
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
      mailboxId,
      createdBy: opts.actor.id,
    })
    .returning();
  return { key: row, secret };
}

/**
 * A restriction to a mailbox that is not a live mailbox of this project would make a key that can reach nothing
 * (or, for another project's mailbox, one whose restriction names a mailbox it can never see): refused up front.
 */
async function requireLiveMailbox(tx: Executor, projectId: string, ref: string): Promise<string> {
  // By address too, as every mailbox tool's inboxId: the dashboard's picker lists 500, and past them the owner types one.
  const [row] = await (ref.includes("@") ? liveMailboxByAddress(tx, projectId, asciiAddress(ref)) : liveMailboxById(tx, projectId, ref));
  if (!row)
    throw fieldError(
      "mailbox_id",
      "is not a mailbox of this project",
      "Pick a mailbox from the Mailboxes screen (an mbx_… id or its address), or omit mailbox_id for all mailboxes.",
    );
  return row.id;
}
