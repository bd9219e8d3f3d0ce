import { z } from "zod";
import { createKey, createKeyInput } from "@/lib/keys/create-key";
import { keyRestrictions } from "@/lib/keys/key-restrictions";
import { keyView, listKeys } from "@/lib/keys/list-keys";
import { revokeKey } from "@/lib/keys/revoke-key";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

const keyShape = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  mailbox_id: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

export const createKeyRoute = defineOwnerRoute({
  name: "keys_create",
  description:
    "Creates an API key. The `secret` (brk_live_…) is returned only in this response. `mailbox_id` restricts its mailbox tools to one live mailbox of the project.",
  input: createKeyInput,
  output: keyShape.extend({ secret: z.string() }),
  rest: { method: "POST", path: "/keys" },
  status: 201,
  op: "key.create",
  handler: async (ctx, input) => {
    const { key, secret } = await createKey(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = key.id;
    return { ...keyView(key), secret };
  },
});

export const listKeysRoute = defineOwnerRoute({
  name: "keys_list",
  description: "Lists the project's API keys with scopes, mailbox restriction and last use (never the secrets).",
  input: z.object({ include_revoked: z.boolean().default(false) }).strict(),
  output: z.object({
    keys: z.array(
      keyShape.extend({
        mailbox_email: z.string().nullable().describe("The address of the mailbox the key is restricted to; null when unrestricted."),
        mailbox_deleted: z.boolean().describe("The mailbox it is restricted to was deleted: the key reaches no mailbox."),
      }),
    ),
  }),
  rest: { method: "GET", path: "/keys" },
  handler: async (ctx, input) => {
    const keys = await listKeys(ctx.db, { actor: ctx.actor, includeRevoked: input.include_revoked });
    const restrictions = await keyRestrictions(
      ctx.db,
      ctx.actor.projectId,
      keys.map((k) => k.mailboxId),
    );
    return {
      keys: keys.map((k) => {
        const r = k.mailboxId ? restrictions.get(k.mailboxId) : undefined;
        return { ...keyView(k), mailbox_email: r?.address ?? null, mailbox_deleted: k.mailboxId !== null && (r?.deleted ?? true) };
      }),
    };
  },
});

export const revokeKeyRoute = defineOwnerRoute({
  name: "keys_revoke",
  description: "Revokes a key: the next request made with it is refused, and its MCP sessions end.",
  input: z.object({ key_id: z.string().min(1) }).strict(),
  output: keyShape,
  rest: { method: "DELETE", path: "/keys/{key_id}" },
  op: "key.revoke",
  handler: async (ctx, input) => {
    ctx.subject = input.key_id;
    return keyView(await revokeKey(ctx.db, { actor: ctx.actor, keyId: input.key_id }));
  },
});
