import { safeEqual } from "@/lib/crypto/hash";
import { signToken } from "@/lib/crypto/secret-box";
import { publicUrl } from "@/lib/settings/remote-access";

/** Brynth's own blob URLs (served by lib/disk/http): signed with APP_SECRET, expiring, never holding a key. */
export const BLOB_PREFIX = "/blob";

type Purpose = "disk-upload" | "disk-download";

/** `<payload>.<hmac>`: the payload (base64url JSON) carries its own expiry `e` in epoch seconds. */
function seal(purpose: Purpose, payload: Record<string, unknown>, expiresAt: Date): string {
  const body = Buffer.from(JSON.stringify({ ...payload, e: Math.floor(expiresAt.getTime() / 1000) })).toString("base64url");
  return `${body}.${signToken(purpose, body)}`;
}

/** The payload of a token this instance (or one sharing APP_SECRET) issued and that has not expired; else null. */
export function unseal<T extends Record<string, unknown>>(purpose: Purpose, token: string): T | null {
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined || !safeEqual(mac, signToken(purpose, body))) return null;
  try {
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T & { e: number };
    return typeof payload.e === "number" && payload.e * 1000 > Date.now() ? payload : null;
  } catch {
    return null;
  }
}

export const uploadUrl = (uploadId: string, expiresAt: Date) => `${publicUrl()}${BLOB_PREFIX}/upload/${seal("disk-upload", { u: uploadId }, expiresAt)}`;

/** A 5-minute download of one file version (`f`) or one attachment (`a`: project, event, name). */
export const downloadUrl = (target: { f: string } | { a: [string, string, string] }, expiresAt: Date) =>
  `${publicUrl()}${BLOB_PREFIX}/download/${seal("disk-download", target, expiresAt)}`;

export const linkSignature = (linkId: string) => signToken("disk-link", linkId);
export const linkUrl = (linkId: string) => `${publicUrl()}${BLOB_PREFIX}/link/${linkId}/${linkSignature(linkId)}`;
