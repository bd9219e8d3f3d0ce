import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { appSecret } from "@/lib/crypto/app-secret";

/** Secrets at rest (webhook secrets, bot tokens, relay passwords): AES-256-GCM under a key derived from APP_SECRET. */
function key(purpose: string): Buffer {
  const secret = appSecret();
  // Derived once per secret and purpose: every webhook delivery and signed URL needs one.
  let keys = derived.get(secret);
  if (!keys) derived.set(secret, (keys = new Map()));
  let k = keys.get(purpose);
  if (!k) keys.set(purpose, (k = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `brynth:${purpose}`, 32))));
  return k;
}
const derived = new WeakMap<Buffer, Map<string, Buffer>>();

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key("secret-box"), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export function decryptSecret(sealed: string): string {
  const [version, data] = sealed.split(".", 2);
  if (version !== "v1" || !data) throw new Error("unknown secret format");
  const raw = Buffer.from(data, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key("secret-box"), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** HMAC for signed URLs and tokens that Brynth itself issues and checks. */
export function signToken(purpose: string, payload: string): string {
  return createHmac("sha256", key(`sign:${purpose}`))
    .update(payload)
    .digest("base64url");
}
