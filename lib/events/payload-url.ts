import { safeEqual } from "@/lib/crypto/hash";
import { signToken } from "@/lib/crypto/secret-box";
import { publicUrl } from "@/lib/settings/remote-access";

/** Signed payload links live one hour (spec: inbox_claim). */
export const PAYLOAD_URL_TTL_S = 3600;
const PURPOSE = "event-payload";
export const PAYLOAD_PATH = "/hooks/payloads/";

/** A capability URL: the signature binds project, event and expiry, so it needs no API key. */
export function payloadUrl(projectId: string, eventId: string, now = Date.now()): { url: string; expiresAt: Date } {
  const expires = Math.floor(now / 1000) + PAYLOAD_URL_TTL_S;
  const sig = signToken(PURPOSE, `${projectId}.${eventId}.${expires}`);
  return {
    url: `${publicUrl()}${PAYLOAD_PATH}${projectId}/${eventId}?expires=${expires}&sig=${sig}`,
    expiresAt: new Date(expires * 1000),
  };
}

export function checkPayloadSignature(link: { projectId: string; eventId: string; expires: string | null; sig: string | null }, now = Date.now()): boolean {
  if (!link.expires || !link.sig || !/^\d{1,12}$/.test(link.expires)) return false;
  const valid = safeEqual(link.sig, signToken(PURPOSE, `${link.projectId}.${link.eventId}.${link.expires}`));
  return valid && Number(link.expires) * 1000 > now;
}
