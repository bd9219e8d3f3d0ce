import type { Source } from "@/lib/db/schema/events";
import { hookUrl } from "@/lib/sources/hook-token";

/** The public shape of a source: never its secret. */
export function sourceView(s: Source) {
  return {
    id: s.id,
    name: s.name,
    type: s.type,
    verification: s.type === "webhook" ? s.verification : null,
    signature_header: s.signatureHeader,
    url: s.type === "webhook" ? hookUrl(s.id) : null,
    address: s.address,
    created_at: s.createdAt.toISOString(),
  };
}
export type SourceView = ReturnType<typeof sourceView>;
