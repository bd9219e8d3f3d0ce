import { safeEqual } from "@/lib/crypto/hash";
import { signToken } from "@/lib/crypto/secret-box";
import { publicUrl } from "@/lib/settings/remote-access";

export const MAIL_HTML_PREFIX = "/mail-html/";
const PURPOSE = "mail-html";

/**
 * A capability URL for one message's HTML: project, message and expiry are signed, so it needs no key. `images`:
 * the variant that lets remote images load (the owner's "Load images"); without it they are blocked. `extracted`:
 * the reply without its quoted history (extracted_html), for the dashboard's default view.
 */
export function mailHtmlUrl(projectId: string, messageId: string, expiresAt: Date, opts: { images?: boolean; extracted?: boolean } = {}): string {
  const claim = {
    p: projectId,
    m: messageId,
    e: Math.floor(expiresAt.getTime() / 1000),
    ...(opts.images ? { i: 1 } : {}),
    ...(opts.extracted ? { x: 1 } : {}),
  };
  const body = Buffer.from(JSON.stringify(claim)).toString("base64url");
  return `${publicUrl()}${MAIL_HTML_PREFIX}${body}.${signToken(PURPOSE, body)}`;
}

/** The message a token names, if its signature is ours and it has not expired. */
export function readMailHtmlToken(token: string): { projectId: string; messageId: string; images: boolean; extracted: boolean } | null {
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined || !safeEqual(mac, signToken(PURPOSE, body))) return null;
  try {
    const claim = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { p?: unknown; m?: unknown; e?: unknown; i?: unknown; x?: unknown };
    if (typeof claim.p !== "string" || typeof claim.m !== "string" || typeof claim.e !== "number") return null;
    return claim.e * 1000 > Date.now() ? { projectId: claim.p, messageId: claim.m, images: claim.i === 1, extracted: claim.x === 1 } : null;
  } catch {
    return null;
  }
}
