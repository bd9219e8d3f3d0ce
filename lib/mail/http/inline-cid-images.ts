import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments } from "@/lib/db/schema/mail";
import { readBlob } from "@/lib/disk/read-blob";

/** Raster types a browser decodes without running anything; SVG is left out (it is a document). */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"]);
/** A larger inline image is left as an attachment, and so are those past the total: one page, one bounded read. */
export const MAX_INLINE_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_INLINE_TOTAL_BYTES = 10 * 1024 * 1024;

/** `src="cid:…"` as sanitize-mail-html.ts writes it: double-quoted, `&` and `"` escaped. */
const CID_SRC = /\ssrc="cid:([^"]*)"/gi;

const unescapeAttribute = (v: string) =>
  v.replace(/&(amp|quot|lt|gt|#39|#x27);/g, (_, e: string) => ({ amp: "&", quot: '"', lt: "<", gt: ">", "#39": "'", "#x27": "'" })[e] ?? "");

/** RFC 2392: a cid URL is the Content-ID, URL-encoded; senders write it either way. */
function contentIds(value: string): string[] {
  const raw = unescapeAttribute(value);
  try {
    const decoded = decodeURIComponent(raw);
    return decoded === raw ? [raw] : [raw, decoded];
  } catch {
    return [raw];
  }
}

/**
 * Inline images of sanitised mail HTML (`<img src="cid:logo@x">`) as data: URIs of the message's own parts, so the
 * sandboxed frame shows them with no request anywhere (its CSP allows data: images only until "Load images"). They
 * come with the message, so they are shown at once, as mail programs do. A source matching no raster part of this
 * message is dropped.
 */
export async function inlineCidImages(db: Executor, owner: { projectId: string; messageId: string }, html: string): Promise<string> {
  const wanted = new Set([...html.matchAll(CID_SRC)].flatMap((m) => contentIds(m[1])));
  if (wanted.size === 0) return html;
  const ownerColumn = owner.messageId.startsWith("drf_") ? mailAttachments.draftId : mailAttachments.messageId;
  const parts = await db
    .select({
      contentId: mailAttachments.contentId,
      contentType: mailAttachments.contentType,
      sizeBytes: mailAttachments.sizeBytes,
      blobKey: mailAttachments.blobKey,
    })
    .from(mailAttachments)
    .where(
      and(eq(mailAttachments.projectId, owner.projectId), eq(ownerColumn, owner.messageId), inArray(mailAttachments.contentId, [...wanted].slice(0, 500))),
    );
  const uris = new Map<string, string>();
  let total = 0;
  for (const part of parts) {
    const type = part.contentType.split(";")[0].trim().toLowerCase();
    if (!part.contentId || uris.has(part.contentId) || !INLINE_TYPES.has(type)) continue;
    if (part.sizeBytes > MAX_INLINE_IMAGE_BYTES || total + part.sizeBytes > MAX_INLINE_TOTAL_BYTES) continue;
    total += part.sizeBytes;
    const bytes = await readBlob(part.blobKey).catch(() => null);
    if (bytes) uris.set(part.contentId, `data:${type};base64,${Buffer.from(bytes).toString("base64")}`);
  }
  return html.replace(CID_SRC, (_, value: string) => {
    const uri = contentIds(value)
      .map((id) => uris.get(id))
      .find(Boolean);
    return uri ? ` src="${uri}"` : "";
  });
}
