import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "@/lib/db/client";
import { type Source, sources } from "@/lib/db/schema/events";
import { decryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";
import { findDelivered, insertEvent } from "@/lib/events/insert-event";
import { readDelivery } from "@/lib/sources/read-delivery";
import { verifySignature } from "@/lib/sources/verify/verify-signature";

/**
 * Decrypted secrets per source row. A webhook's row comes from the source cache (find-source.ts), which keeps it
 * at most 10 s, so its secrets are decrypted once for that time instead of on every delivery.
 */
const decrypted = new WeakMap<Source, { current: string | null; previous: string | null }>();

/**
 * A secret that cannot be opened for this row (copied from another source, altered, or of the pre-upgrade format)
 * makes every delivery unverifiable: refused like a bad signature, so the provider retries once the owner rotates it.
 */
function openSecret(source: Source, sealed: string, column: AnyPgColumn): string {
  try {
    return decryptSecret(sealed, secretSlot(column, source.id));
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    console.error(`[brynth] source ${source.id}: ${err.message}`);
    throw new AppError("unauthorized", `Signature cannot be verified: the stored secret of source ${source.name} cannot be decrypted.`, {
      fix: "The project owner must set the secret again (source_rotate_secret); deliveries are refused until then.",
    });
  }
}

/** The current secret, then the previous one while its rotation grace period lasts. */
export function sourceSecrets(source: Source, now = Date.now()): string[] {
  let plain = decrypted.get(source);
  if (!plain) {
    plain = {
      current: source.secretEnc ? openSecret(source, source.secretEnc, sources.secretEnc) : null,
      previous: source.previousSecretEnc ? openSecret(source, source.previousSecretEnc, sources.previousSecretEnc) : null,
    };
    decrypted.set(source, plain);
  }
  const out: string[] = [];
  if (plain.current !== null) out.push(plain.current);
  if (plain.previous !== null && source.previousSecretExpiresAt && source.previousSecretExpiresAt.getTime() > now) {
    out.push(plain.previous);
  }
  return out;
}

/**
 * One delivery to a webhook source: verified over the raw bytes first (nothing is parsed or stored on failure),
 * then stored as a pending event. A provider retry of a delivery already stored returns the first event.
 */
export async function receiveWebhook(
  db: Executor,
  opts: { source: Source; body: Uint8Array; headers: Pick<Headers, "get">; nowS?: number },
): Promise<{ id: string; duplicate: boolean }> {
  const { source } = opts;
  const verdict = verifySignature({
    verification: source.verification,
    secrets: sourceSecrets(source),
    signatureHeader: source.signatureHeader,
    body: opts.body,
    headers: opts.headers,
    nowS: opts.nowS,
  });
  if (!verdict.ok) {
    throw new AppError("unauthorized", `Signature verification failed: ${verdict.reason}.`, {
      fix: "Sign the raw body with the source's secret as its verification scheme requires; check the clock for timestamped schemes.",
    });
  }
  const d = readDelivery(source, opts.body, opts.headers);
  // A retry of a delivery an earlier build stored under its id header (one index lookup; such rows only age).
  if (d.priorDedupeKey !== null) {
    const earlier = await findDelivered(db, { projectId: source.projectId, source: source.name, sourceId: source.id, dedupeKey: d.priorDedupeKey });
    if (earlier) return { id: earlier, duplicate: true };
  }
  const row = {
    projectId: source.projectId,
    sourceId: source.id,
    source: source.name,
    type: d.type,
    // Nothing proves who sent a delivery to a source that checks no signature: its envelope says so.
    trust: source.verification === "none" ? ("external_unverified" as const) : ("external_untrusted" as const),
    body: d.body,
    contentType: d.contentType,
    payloadSize: "json" in d.body ? Buffer.byteLength(d.body.json) : d.body.raw.byteLength,
    headers: d.headers,
    dedupeKey: d.dedupeKey,
  };
  return insertEvent(db, row);
}
