import { and, eq, inArray } from "drizzle-orm";
import { Parser } from "htmlparser2";
import type { Executor } from "@/lib/db/client";
import { mailAttachments } from "@/lib/db/schema/mail";
import { unstorableText } from "@/lib/db/storable";
import { readBlob } from "@/lib/disk/read-blob";

/** Raster types a browser decodes without running anything; SVG is left out (it is a document). */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"]);
/** A larger inline image is left as an attachment, and so are those past the total: one page, one bounded read. */
export const MAX_INLINE_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_INLINE_TOTAL_BYTES = 10 * 1024 * 1024;

/** RFC 2392: a cid URL is the Content-ID, URL-encoded; senders write it either way. */
function contentIds(value: string): string[] {
  const ids = [value];
  try {
    const decoded = decodeURIComponent(value);
    if (decoded !== value) ids.push(decoded);
  } catch {}
  // `cid:%00` decoded to a NUL, which names no part and which Postgres refused in the query below: GET /mail-html
  // answered 500 instead of the message (found by helper-117).
  return ids.filter((id) => !unstorableText(id));
}

/** An `<img>` whose source is a `cid:` URL: where its tag is in the HTML, its attributes, decoded, and its ids. */
interface CidImage {
  start: number;
  end: number;
  attribs: Record<string, string>;
  ids: string[];
}

/**
 * The `cid:` images of sanitised HTML, read as tags by htmlparser2 (as sanitize-html reads). This was a regex over the
 * serialized HTML, which also matched text that looks like an attribute, where `"` stays as is (found by helper-117).
 */
function cidImages(html: string): CidImage[] {
  const images: CidImage[] = [];
  if (!/cid:/i.test(html)) return images;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (name !== "img" || !/^cid:/i.test(attribs.src ?? "")) return;
      images.push({ start: parser.startIndex, end: parser.endIndex + 1, attribs, ids: contentIds(attribs.src.slice("cid:".length)) });
    },
  });
  parser.end(html);
  return images;
}

/** An `<img>` written as sanitize-html writes it: double-quoted values with `&`, `<`, `>` and `"` escaped. */
const imgTag = (attribs: Record<string, string>) =>
  `<img${Object.entries(attribs)
    .map(([name, value]) => ` ${name}="${value.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c)}"`)
    .join("")} />`;

/**
 * Inline images of sanitised mail HTML (`<img src="cid:logo@x">`) as data: URIs of the message's own parts, so the
 * sandboxed frame shows them with no request anywhere (its CSP allows data: images only until "Load images"). They
 * come with the message, so they are shown at once, as mail programs do. A source matching no raster part of this
 * message is dropped.
 */
export async function inlineCidImages(db: Executor, owner: { projectId: string; messageId: string }, html: string): Promise<string> {
  const images = cidImages(html);
  if (images.length === 0) return html;
  const wanted = [...new Set(images.flatMap((image) => image.ids))].slice(0, 500);
  const ownerColumn = owner.messageId.startsWith("drf_") ? mailAttachments.draftId : mailAttachments.messageId;
  const parts =
    wanted.length === 0
      ? []
      : await db
          .select({
            contentId: mailAttachments.contentId,
            contentType: mailAttachments.contentType,
            sizeBytes: mailAttachments.sizeBytes,
            blobKey: mailAttachments.blobKey,
          })
          .from(mailAttachments)
          .where(and(eq(mailAttachments.projectId, owner.projectId), eq(ownerColumn, owner.messageId), inArray(mailAttachments.contentId, wanted)));
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
  let out = "";
  let from = 0;
  for (const { start, end, attribs, ids } of images) {
    const uri = ids.map((id) => uris.get(id)).find(Boolean);
    const { src: _, ...rest } = attribs;
    out += html.slice(from, start) + imgTag(uri ? { ...attribs, src: uri } : rest);
    from = end;
  }
  return out + html.slice(from);
}
