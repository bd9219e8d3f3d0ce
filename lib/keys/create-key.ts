import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
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
    mailbox_id: z.string().min(1).max(100).nullish(),
  })
  .strict();
export type CreateKeyInput = z.infer<typeof createKeyInput>;

/** The secret is returned once and never stored. */
export async function createKey(tx: Executor, opts: { actor: Actor } & CreateKeyInput) {
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
