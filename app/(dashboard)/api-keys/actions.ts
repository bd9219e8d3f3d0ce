"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { createKey, createKeyInput } from "@/lib/keys/create-key";
import { keyView } from "@/lib/keys/list-keys";
import { revokeKey } from "@/lib/keys/revoke-key";

/** The secret goes back to this browser once; only its hash is stored. createKey ledgers `key.create`. */
export const createKeyAction = ownerAction(createKeyInput, async (ctx, input) => {
  const { key, secret } = await createKey(ctx.db, { actor: ctx.actor, ...input });
  return { ...keyView(key), secret };
});

/** revokeKey ledgers `key.revoke` and ends the key's MCP sessions. */
export const revokeKeyAction = ownerAction(z.object({ keyId: z.string().min(1).max(100) }), async (ctx, input) =>
  keyView(await revokeKey(ctx.db, { actor: ctx.actor, keyId: input.keyId })),
);
