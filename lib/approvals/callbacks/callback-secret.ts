import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { decryptSecret, encryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const seal = (secret: string, projectId: string) => encryptSecret(secret, secretSlot(approvalSettings.callbackSecretEnc, projectId));
/** The replaced secret, sealed to its own column: a ciphertext is bound to its column and cannot simply move. */
const sealPrevious = (secret: string, projectId: string) => encryptSecret(secret, secretSlot(approvalSettings.previousCallbackSecretEnc, projectId));

/** How long a replaced secret keeps signing beside the new one, as a mail webhook's does (rotate-secret.ts). */
export const CALLBACK_SECRET_OVERLAP_MS = 24 * 3_600_000;

function open(sealed: string, projectId: string): string {
  try {
    return decryptSecret(sealed, secretSlot(approvalSettings.callbackSecretEnc, projectId));
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    // Not replaced silently: receivers verify with the secret they were given, and a moved one means tampering.
    throw new AppError("service_unavailable", `The project's callback signing secret cannot be used: ${err.message}`, {
      fix: "Rotate the callback secret on the Channels screen and give the new one to your receivers.",
    });
  }
}

/**
 * The project's Standard Webhooks secret for callback_url deliveries (`whsec_…`), created on first use and stored
 * encrypted. Receivers verify with it (Channels screen shows it); after a rotation the old one signs too for a day.
 */
export async function callbackSecret(db: Executor, projectId: string): Promise<string> {
  const [row] = await db.select({ enc: approvalSettings.callbackSecretEnc }).from(approvalSettings).where(eq(approvalSettings.projectId, projectId));
  if (row?.enc) return open(row.enc, projectId);
  const sealed = seal(newSecret(), projectId);
  await db
    .insert(approvalSettings)
    .values({ projectId, callbackSecretEnc: sealed })
    .onConflictDoUpdate({
      target: approvalSettings.projectId,
      set: { callbackSecretEnc: sealed, updatedAt: new Date() },
      setWhere: sql`${approvalSettings.callbackSecretEnc} is null`,
    });
  // A concurrent first use may have won: read back whichever secret is stored.
  const [stored] = await db.select({ enc: approvalSettings.callbackSecretEnc }).from(approvalSettings).where(eq(approvalSettings.projectId, projectId));
  return open(stored.enc!, projectId);
}

/**
 * What signs a callback now: the secret, and during the 24 hours after a rotation the one it replaced, so a receiver
 * still holding the old secret verifies every callback until it switches (Standard Webhooks verifiers accept any one
 * matching `v1` signature). Before, a rotation made every receiver refuse every callback, retries queued earlier too.
 */
export async function callbackSigningSecrets(db: Executor, projectId: string, now = new Date()): Promise<string[]> {
  const [row] = await db
    .select({
      enc: approvalSettings.callbackSecretEnc,
      previous: approvalSettings.previousCallbackSecretEnc,
      until: approvalSettings.previousCallbackSecretUntil,
    })
    .from(approvalSettings)
    .where(eq(approvalSettings.projectId, projectId));
  const secret = row?.enc ? open(row.enc, projectId) : await callbackSecret(db, projectId);
  const previous = row?.previous && row.until && row.until > now ? openOrNull(row.previous, approvalSettings.previousCallbackSecretEnc, projectId) : null;
  return previous ? [secret, previous] : [secret];
}

/**
 * A new secret, returned once. The outgoing one keeps signing beside it for CALLBACK_SECRET_OVERLAP_MS; rotating
 * again inside that window keeps only the newest old one. One that can no longer be opened is dropped: rotating is
 * how the owner repairs that.
 */
export async function rotateCallbackSecret(db: Executor, projectId: string): Promise<string> {
  const secret = newSecret();
  const sealed = seal(secret, projectId);
  const [row] = await db
    .select({ enc: approvalSettings.callbackSecretEnc })
    .from(approvalSettings)
    .where(eq(approvalSettings.projectId, projectId))
    .for("update");
  const outgoing = row?.enc ? openOrNull(row.enc, approvalSettings.callbackSecretEnc, projectId) : null;
  const previous = {
    previousCallbackSecretEnc: outgoing ? sealPrevious(outgoing, projectId) : null,
    previousCallbackSecretUntil: outgoing ? new Date(Date.now() + CALLBACK_SECRET_OVERLAP_MS) : null,
  };
  await db
    .insert(approvalSettings)
    .values({ projectId, callbackSecretEnc: sealed, ...previous })
    .onConflictDoUpdate({ target: approvalSettings.projectId, set: { callbackSecretEnc: sealed, ...previous, updatedAt: new Date() } });
  return secret;
}

/** A stored secret, or null when it can no longer be opened (APP_SECRET changed): dropped, not an error. */
function openOrNull(sealed: string, column: Parameters<typeof secretSlot>[0], projectId: string): string | null {
  try {
    return decryptSecret(sealed, secretSlot(column, projectId));
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    return null;
  }
}
