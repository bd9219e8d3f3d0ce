"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { createKey, createKeyInput } from "@/lib/keys/create-key";
import { keyView } from "@/lib/keys/list-keys";
import { revokeKey } from "@/lib/keys/revoke-key";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { createKeyRoute, revokeKeyRoute } from "@/lib/owner-api/keys";

/** The secret goes back to this browser once; only its hash is stored. Ledgered as the owner route's op. */
export const createKeyAction = ownerAction(
  createKeyInput,
  async (ctx, input) => {
    const { key, secret } = await createKey(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = key.id;
    return { ...keyView(key), secret };
  },
  { op: routeOp(createKeyRoute) },
);

/** Ends the key's MCP sessions too. */
export const revokeKeyAction = ownerAction(
  z.object({ keyId: z.string().min(1).max(100) }),
  async (ctx, input) => {
    ctx.subject = input.keyId;
    return keyView(await revokeKey(ctx.db, { actor: ctx.actor, keyId: input.keyId }));
  },
  { op: routeOp(revokeKeyRoute) },
);
