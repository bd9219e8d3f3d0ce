import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";

const generate = promisify(generateKeyPair);

/** RSA 2048: what every receiver verifies (Ed25519 DKIM is still ignored by many). */
export async function generateDkimKey(): Promise<{ privatePem: string; publicBase64: string }> {
  const { privateKey, publicKey } = await generate("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { privatePem: privateKey, publicBase64: publicKey.toString("base64") };
}

/** `brynth202611`: dated, so a later key can be published beside the old one before switching. */
export const dkimSelector = (now = new Date()) => `brynth${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
