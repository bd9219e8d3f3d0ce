import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/**
 * The project's Standard Webhooks secret for callback_url deliveries (`whsec_…`), created on first use and stored
 * encrypted. Receivers verify with it (Channels screen shows it); rotating replaces it at once.
 */
export async function callbackSecret(db: Executor, projectId: string): Promise<string> {
  const [row] = await db.select({ enc: approvalSettings.callbackSecretEnc }).from(approvalSettings).where(eq(approvalSettings.projectId, projectId));
  if (row?.enc) return decryptSecret(row.enc);
  const secret = newSecret();
  await db
    .insert(approvalSettings)
    .values({ projectId, callbackSecretEnc: encryptSecret(secret) })
    .onConflictDoUpdate({
      target: approvalSettings.projectId,
      set: { callbackSecretEnc: encryptSecret(secret), updatedAt: new Date() },
      setWhere: sql`${approvalSettings.callbackSecretEnc} is null`,
    });
  // A concurrent first use may have won: read back whichever secret is stored.
  const [stored] = await db.select({ enc: approvalSettings.callbackSecretEnc }).from(approvalSettings).where(eq(approvalSettings.projectId, projectId));
  return decryptSecret(stored.enc!);
}

export async function rotateCallbackSecret(db: Executor, projectId: string): Promise<string> {
  const secret = newSecret();
  await db
    .insert(approvalSettings)
    .values({ projectId, callbackSecretEnc: encryptSecret(secret) })
    .onConflictDoUpdate({ target: approvalSettings.projectId, set: { callbackSecretEnc: encryptSecret(secret), updatedAt: new Date() } });
  return secret;
}
