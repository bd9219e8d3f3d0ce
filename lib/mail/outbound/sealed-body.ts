import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { mailMessages } from "@/lib/db/schema/mail";

/** The body of a message as sent, where the stored one withholds a secret (send-system-email.ts). */
export interface SealedBody {
  text: string;
  html: string | null;
}

/** Encrypted and bound to its message's row: copied to another row, it cannot be opened. */
export const sealBody = (messageId: string, body: SealedBody): string => encryptSecret(JSON.stringify(body), secretSlot(mailMessages.sealedBodyEnc, messageId));

export const openBody = (messageId: string, sealed: string): SealedBody =>
  JSON.parse(decryptSecret(sealed, secretSlot(mailMessages.sealedBodyEnc, messageId))) as SealedBody;
