import { randomBytes } from "node:crypto";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";

/** A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64, as the `standardwebhooks` package reads it. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/** The secret as stored (`secret_enc`), bound to the webhook's row so it cannot be copied to another. */
export const sealWebhookSecret = (webhookId: string, secret: string) => encryptSecret(secret, secretSlot(mailWebhooks.secretEnc, webhookId));

export const openWebhookSecret = (row: { id: string; secretEnc: string }) => decryptSecret(row.secretEnc, secretSlot(mailWebhooks.secretEnc, row.id));
