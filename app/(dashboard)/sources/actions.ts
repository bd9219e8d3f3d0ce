"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { addSource, addSourceInput } from "@/lib/sources/add-source";
import { removeSource } from "@/lib/sources/remove-source";
import { rotateSecretInput, rotateSourceSecret } from "@/lib/sources/rotate-source-secret";
import { sendTestEvent } from "@/lib/sources/send-test-event";

const byName = z.object({ name: z.string().min(1).max(64) });

/** addSource ledgers `source.add`; the secret is encrypted and never comes back. */
export const addSourceAction = ownerAction(addSourceInput, (ctx, input) => addSource(ctx.db, { actor: ctx.actor, ...input }));

/** removeSource ledgers `source.remove`; the URL stops accepting at once. */
export const removeSourceAction = ownerAction(byName, async (ctx, input) => {
  const row = await removeSource(ctx.db, { actor: ctx.actor, name: input.name });
  return { name: row.name };
});

/** A correctly signed delivery through the real intake path; ledgered as `source.test`. */
export const sendTestEventAction = ownerAction(byName, (ctx, input) => sendTestEvent(ctx.db, { actor: ctx.actor, name: input.name }));

/** Ledgered as `source.rotate_secret`; the old secret verifies for `grace_hours` more. */
export const rotateSecretAction = ownerAction(rotateSecretInput, (ctx, input) => rotateSourceSecret(ctx.db, { actor: ctx.actor, ...input }));
