import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { decryptSecret, encryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const seal = (secret: string, projectId: string) => encryptSecret(secret, secretSlot(approvalSettings.callbackSecretEnc, projectId));

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
 * encrypted. Receivers verify with it (Channels screen shows it); rotating replaces it at once.
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

export async function rotateCallbackSecret(db: Executor, projectId: string): Promise<string> {
  const secret = newSecret();
  const sealed = seal(secret, projectId);
  await db
    .insert(approvalSettings)
    .values({ projectId, callbackSecretEnc: sealed })
    .onConflictDoUpdate({ target: approvalSettings.projectId, set: { callbackSecretEnc: sealed, updatedAt: new Date() } });
  return secret;
}
