import { z } from "zod";
import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { sources } from "@/lib/db/schema/events";
import { decryptSecret, encryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError, notFound } from "@/lib/errors";
import { sourceCache, findSourceByName } from "@/lib/sources/find-source";
import { assertSecretUsable, secretField, sourceName } from "@/lib/sources/source-input";
import { standardWebhooksKey } from "@/lib/sources/verify/standard-webhooks";

export const rotateSecretInput = z
  .object({
    name: sourceName,
    secret: secretField,
    /** Hours the old secret keeps verifying, so deliveries signed before the provider switched still land. */
    grace_hours: z.number().int().min(0).max(168).default(24),
  })
  .strict();
export type RotateSecretInput = z.input<typeof rotateSecretInput>;

/** Replaces a webhook source's secret; the new one is never shown again. */
export async function rotateSourceSecret(tx: Executor, opts: { actor: Actor; sourceId?: string } & z.output<typeof rotateSecretInput>) {
  assertSecretUsable(opts.secret);
  const source = await findSourceByName(tx, opts.actor.projectId, opts.name);
  // The dashboard names the row it showed: a source an agent re-made under that name since is another one.
  if (opts.sourceId && source.id !== opts.sourceId) throw notFound(`Source ${opts.name} as shown`, "Reload the Sources screen: it was removed and made again.");
  if (source.type !== "webhook" || source.verification === "none") {
    throw new AppError("validation_error", `Source ${opts.name} does not verify signatures, so it has no secret.`, {
      fix: "Add a new source with a verification and a secret instead.",
    });
  }
  if (source.verification === "standard_webhooks" && !standardWebhooksKey(opts.secret)) {
    throw new AppError("validation_error", "secret: a Standard Webhooks secret is base64, as whsec_<base64> or alone", {
      details: [{ field: "secret", message: "a Standard Webhooks secret is base64, as whsec_<base64> or alone" }],
    });
  }
  const graceEnds = new Date(Date.now() + opts.grace_hours * 3_600_000);
  const previous = opts.grace_hours > 0 ? resealAsPrevious(source.secretEnc, source.id) : null;
  await tx
    .update(sources)
    .set({
      secretEnc: encryptSecret(opts.secret, secretSlot(sources.secretEnc, source.id)),
      previousSecretEnc: previous,
      previousSecretExpiresAt: previous ? graceEnds : null,
      updatedAt: new Date(),
    })
    .where(and(eq(sources.projectId, opts.actor.projectId), eq(sources.id, source.id), isNull(sources.removedAt)));
  sourceCache.invalidate(tx);
  return { source_id: source.id, name: source.name, previous_valid_until: previous ? graceEnds.toISOString() : null };
}

/**
 * The outgoing secret, sealed again for the previous-secret column: a secret is bound to its column, so the
 * ciphertext cannot simply move. One that cannot be opened verifies nothing, and rotating is how the owner repairs
 * that, so it is dropped rather than refusing the rotation.
 */
function resealAsPrevious(current: string | null, sourceId: string): string | null {
  if (!current) return null;
  try {
    return encryptSecret(decryptSecret(current, secretSlot(sources.secretEnc, sourceId)), secretSlot(sources.previousSecretEnc, sourceId));
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    return null;
  }
}
