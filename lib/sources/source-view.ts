import type { Source } from "@/lib/db/schema/events";
import { hookUrl } from "@/lib/sources/hook-token";
import { DEFAULT_SIGNATURE_HEADER } from "@/lib/sources/verify/generic-hmac";

/** The public shape of a source: never its secret. */
export function sourceView(s: Source) {
  return {
    id: s.id,
    name: s.name,
    type: s.type,
    verification: s.type === "webhook" ? s.verification : null,
    // The header the signature is read from: an hmac_sha256 source without one reads the spec's default, and says so.
    signature_header: s.type === "webhook" && s.verification === "hmac_sha256" ? (s.signatureHeader ?? DEFAULT_SIGNATURE_HEADER) : s.signatureHeader,
    url: s.type === "webhook" ? hookUrl(s.id) : null,
    address: s.address,
    created_at: s.createdAt.toISOString(),
  };
}
export type SourceView = ReturnType<typeof sourceView>;
