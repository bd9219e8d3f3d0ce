"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { addSource, addSourceInput } from "@/lib/sources/add-source";
import { removeSource } from "@/lib/sources/remove-source";
import { rotateSecretInput, rotateSourceSecret } from "@/lib/sources/rotate-source-secret";
import { sendTestEvent } from "@/lib/sources/send-test-event";
import { toolOpOf } from "@/lib/tools/registry";

const byName = z.object({ name: z.string().min(1).max(64) });
/** A secret leaves no trace in the ledger, not even as part of a digest (a weak one could be guessed from it). */
const withoutSecret = <T extends { secret?: unknown }>({ secret: _secret, ...rest }: T) => rest;

/** The secret is encrypted and never comes back. */
export const addSourceAction = ownerAction(
  addSourceInput,
  async (ctx, input) => {
    const view = await addSource(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = view.id;
    return view;
  },
  { op: toolOpOf("source_add"), input: withoutSecret },
);

/** The row the screen showed: a source removed and made again under its name since is not touched. */
const shownSource = byName.extend({ sourceId: z.string().min(1).max(64) });

/** The URL stops accepting at once. */
export const removeSourceAction = ownerAction(
  shownSource,
  async (ctx, input) => {
    const row = await removeSource(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = row.id;
    return { name: row.name };
  },
  { op: toolOpOf("source_remove") },
);

/** A correctly signed delivery through the real intake path. */
export const sendTestEventAction = ownerAction(
  byName,
  async (ctx, input) => {
    const result = await sendTestEvent(ctx.db, { actor: ctx.actor, name: input.name });
    ctx.subject = result.id;
    return result;
  },
  { op: "source.test" },
);

/** The old secret verifies for `grace_hours` more. */
export const rotateSecretAction = ownerAction(
  rotateSecretInput.extend({ sourceId: shownSource.shape.sourceId }),
  async (ctx, input) => {
    const rotated = await rotateSourceSecret(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = rotated.source_id;
    return rotated;
  },
  { op: "source.rotate_secret", input: withoutSecret },
);
