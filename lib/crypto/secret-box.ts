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

/**
 * Where a sealed secret lives: its table, its row's id and its column (SQL names; see secret-slot.ts). It is the
 * cipher's associated data, so a ciphertext copied to another row or column fails to open instead of being used there.
 */
export interface SecretSlot {
  table: string;
  id: string;
  column: string;
}

/** A stored secret that cannot be opened where it is: moved from another row, tampered with, or of an old format. */
export class UnreadableSecretError extends Error {
  constructor(slot: SecretSlot, why: string) {
    super(`The secret in ${slot.table}.${slot.column} of ${slot.id} cannot be decrypted: ${why}.`);
    this.name = "UnreadableSecretError";
  }
}

// JSON of an array: no table, id or column can be spelled so that two slots give the same bytes.
const associated = (slot: SecretSlot) => Buffer.from(JSON.stringify(["brynth.secret", slot.table, slot.id, slot.column]));

function seal(plain: string, aad: Buffer | null): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key("secret-box"), iv);
  if (aad) cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

function open(data: string, aad: Buffer | null): string | null {
  const raw = Buffer.from(data, "base64url");
  if (raw.byteLength < 28) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key("secret-box"), raw.subarray(0, 12));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** Seals `plain` for one slot (v2: bound to the slot). */
export function encryptSecret(plain: string, slot: SecretSlot): string {
  return `v2.${seal(plain, associated(slot))}`;
}

/** Opens a secret sealed for this very slot; anything else throws UnreadableSecretError, never a generic error. */
export function decryptSecret(sealed: string, slot: SecretSlot): string {
  const [version, data] = sealed.split(".", 2);
  if (version === "v1") {
    // Every v1 secret was re-sealed as v2 once, at start-up (upgrade-sealed-secrets.ts); one seen now was put here
    // since, and a v1 ciphertext names no row, so it may have come from any other.
    throw new UnreadableSecretError(slot, "it is in the old v1 format, which names no row, and all v1 secrets were upgraded already");
  }
  if (version !== "v2" || !data) throw new UnreadableSecretError(slot, "it is not a sealed secret");
  const plain = open(data, associated(slot));
  if (plain === null) throw new UnreadableSecretError(slot, "it was sealed for another row or column, or altered, or under another APP_SECRET");
  return plain;
}

/** A v1 secret (sealed before secrets were bound to their slot), or null. Only the one-time upgrade reads these. */
export function openUnboundSecret(sealed: string): string | null {
  const [version, data] = sealed.split(".", 2);
  return version === "v1" && data ? open(data, null) : null;
}

/** HMAC for signed URLs and tokens that Brynth itself issues and checks. */
export function signToken(purpose: string, payload: string): string {
  return createHmac("sha256", key(`sign:${purpose}`))
    .update(payload)
    .digest("base64url");
}
