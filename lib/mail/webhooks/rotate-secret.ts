import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { decryptSecret, encryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import type { Executor } from "@/lib/db/client";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { findWebhook, webhookNotFound } from "@/lib/mail/webhooks/webhook-scope";
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";

export const ROTATE_WEBHOOK_SECRET_OP = "mail.webhook_rotate_secret";

/** How long the old secret keeps signing after a rotation (design §4 C: a 24 h overlap, two signatures). */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;

/** The previous secret, sealed to its own column: a ciphertext is bound to its column and cannot simply move. */
export const sealPreviousWebhookSecret = (webhookId: string, secret: string) => encryptSecret(secret, secretSlot(mailWebhooks.previousSecretEnc, webhookId));

/** The old secret that still signs (as a second signature) until `previous_secret_until`, or null once that passed. */
export function openPreviousWebhookSecret(
  row: { id: string; previousSecretEnc: string | null; previousSecretUntil: Date | null },
  now = new Date(),
): string | null {
  if (!row.previousSecretEnc || !row.previousSecretUntil || row.previousSecretUntil <= now) return null;
  return decryptSecret(row.previousSecretEnc, secretSlot(mailWebhooks.previousSecretEnc, row.id));
}

/**
 * Gives a webhook a new `whsec_` secret, returned once. The outgoing one keeps signing beside it for 24 hours, so
 * a receiver can switch without refusing a delivery; rotating again inside that window keeps only the newest old
 * one. An outgoing secret that can no longer be opened (APP_SECRET changed) is dropped: rotating is how the owner
 * repairs that. Owner-only today (no agent tool rotates); findWebhook would keep a key to its own webhooks.
 */
export async function rotateWebhookSecret(tx: Executor, opts: { actor: Actor; webhookId: string }) {
  const row = await findWebhook(tx, { actor: opts.actor, webhookId: opts.webhookId, lock: true });
  const secret = newWebhookSecret();
  const until = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS);
  const previous = outgoing(row);
  const [updated] = await tx
    .update(mailWebhooks)
    .set({
      secretEnc: sealWebhookSecret(row.id, secret),
      previousSecretEnc: previous ? sealPreviousWebhookSecret(row.id, previous) : null,
      previousSecretUntil: previous ? until : null,
      updatedAt: new Date(),
    })
    .where(and(eq(mailWebhooks.projectId, opts.actor.projectId), eq(mailWebhooks.id, row.id)))
    .returning({ id: mailWebhooks.id, url: mailWebhooks.url, previousSecretUntil: mailWebhooks.previousSecretUntil });
  if (!updated) throw webhookNotFound(opts.webhookId);
  return { id: updated.id, url: updated.url, secret, previousSecretUntil: updated.previousSecretUntil };
}

function outgoing(row: { id: string; secretEnc: string }): string | null {
  try {
    return openWebhookSecret(row);
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    return null;
  }
}
