import { safeEqual } from "@/lib/crypto/hash";
import { signToken } from "@/lib/crypto/secret-box";
import { remoteAccess } from "@/lib/settings/remote-access";

export const MAIL_ATTACHMENT_PREFIX = "/mail-attachment/";
const PURPOSE = "mail-attachment";

/** Mailbox spec: get_attachment's capability lasts five minutes. */
export const ATTACHMENT_URL_TTL_MS = 5 * 60_000;

/**
 * What a capability names. It carries no permission of its own: each download asks the database again whether the
 * issuing key (`keyId`) may still read the attachment's mailbox, so revoking the key or narrowing it takes effect on
 * the next download, and it is served only on the origin it was issued for.
 */
export interface AttachmentClaim {
  projectId: string;
  attachmentId: string;
  /** The key (or OAuth grant) that asked; null when the owner did. */
  keyId: string | null;
  /**
   * The owner's dashboard session the owner asked with (over /mcp or REST with the cookie): the download needs it
   * live, as a key's needs the key. Null for a key, and for HTTP Basic, which has no session to end.
   */
  sessionId: string | null;
  origin: string;
}

/** `<payload>.<hmac>` in the path (never the query, which proxies and logs keep): base64url JSON with its expiry `e` in ms. */
export function attachmentUrl(claim: Omit<AttachmentClaim, "origin">, now = new Date()): { url: string; expiresAt: Date } {
  // Bound to the public URL of Settings → Remote access (else PUBLIC_URL): the capability works only there.
  const base = remoteAccess().publicUrl;
  const expiresAt = new Date(now.getTime() + ATTACHMENT_URL_TTL_MS);
  const payload = { p: claim.projectId, a: claim.attachmentId, k: claim.keyId, s: claim.sessionId, o: new URL(base).origin, e: expiresAt.getTime() };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return { url: `${base}${MAIL_ATTACHMENT_PREFIX}${body}.${signToken(PURPOSE, body)}`, expiresAt };
}

/** The claim of a token this instance signed and that has not expired; null for anything else. */
export function readAttachmentToken(token: string, now = new Date()): AttachmentClaim | null {
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined || !safeEqual(mac, signToken(PURPOSE, body))) return null;
  try {
    const c = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof c.p !== "string" || typeof c.a !== "string" || typeof c.o !== "string" || typeof c.e !== "number") return null;
    if (c.k !== null && typeof c.k !== "string") return null;
    if (c.s !== null && typeof c.s !== "string") return null;
    return c.e > now.getTime() ? { projectId: c.p, attachmentId: c.a, keyId: c.k, sessionId: c.s, origin: c.o } : null;
  } catch {
    return null;
  }
}
