import type { Executor } from "@/lib/db/client";
import { discardOnRollback } from "@/lib/blob/unused-blob";
import { diskAttachments } from "@/lib/db/schema/disk";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { AppError } from "@/lib/errors";
import { contentTypeProblem, DEFAULT_CONTENT_TYPE } from "@/lib/disk/file-input";
import { newBlobKey } from "@/lib/disk/file-view";
import { pathProblem } from "@/lib/disk/path-rules";
import { cutUtf8 } from "@/lib/text/cut-utf8";

const NAME_MAX_BYTES = 255;
/** A longer tail after the last dot is not taken for an extension: such a name is cut as a whole. */
const EXTENSION_MAX_BYTES = 32;
/**
 * Characters that show nothing themselves but change what a name looks like or carry what nobody sees: controls,
 * bidi embeddings, overrides and isolates (`invoice<U+202E>fdp.exe` reads as `invoiceexe.pdf`), direction marks,
 * zero-width and other format characters (Cf), line and paragraph separators, lone surrogates, and every other
 * default-ignorable code point: variation selectors (a run of them hides a text, one byte per selector), the Hangul
 * fillers (a blank that is a letter), the combining grapheme joiner. A stranger's file name needs none of them.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

/** `report.pdf` → [`report`, `.pdf`]; no extension for `.profile`, `README` or a tail over 32 bytes. */
export function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf(".");
  const extension = name.slice(dot);
  return dot > 0 && Buffer.byteLength(extension) <= EXTENSION_MAX_BYTES ? [name.slice(0, dot), extension] : [name, ""];
}

/** `stem + suffix + extension` in at most 255 bytes: the stem is cut (never inside a character), the rest kept. */
export function fitAttachmentName(stem: string, suffix: string, extension: string): string {
  const room = NAME_MAX_BYTES - Buffer.byteLength(suffix) - Buffer.byteLength(extension);
  return `${cutUtf8(stem, room).trimEnd()}${suffix}${extension}`;
}

/**
 * A file name from an email made safe as the `name` of `evt_…/name`: one path segment, no control, bidi or other
 * invisible characters, no slashes or backslashes, not `.`/`..`, at most 255 bytes (a longer name loses the end of
 * its stem, not its extension); `attachment` when nothing usable is left. Callers make names unique within one
 * event themselves (e.g. `report (2).pdf`, through fitAttachmentName).
 */
export function safeAttachmentName(raw: string | null | undefined): string {
  let name = (raw ?? "").replace(INVISIBLE, "").replace(/[\\/]/g, "_").trim();
  if (Buffer.byteLength(name) > NAME_MAX_BYTES) {
    const [stem, extension] = splitExtension(name);
    name = fitAttachmentName(stem, "", extension);
  }
  if (!name || name === "." || name === ".." || pathProblem(name)) return "attachment";
  return name;
}

/**
 * Stores an inbound attachment (for the mail engine, inside its own transaction) so that `evt_…/name` resolves in
 * file_get, file_url and email_send. The bytes are written first; if the transaction then rolls back, the object is
 * unreferenced. Attachments do not count toward the disk's 1 GB: they are mail storage.
 */
export async function saveAttachment(
  db: Executor,
  opts: { projectId: string; eventId: string; name: string; contentType?: string; bytes: Uint8Array },
): Promise<{ path: string; size_bytes: number; content_type: string }> {
  if (!opts.eventId.startsWith("evt_") || opts.eventId.includes("/")) throw new AppError("bad_request", `Not an event id: ${opts.eventId}`);
  if (safeAttachmentName(opts.name) !== opts.name)
    throw new AppError("bad_request", `Unsafe attachment name: ${JSON.stringify(opts.name)}`, { fix: "Pass the name through safeAttachmentName first." });
  const contentType = opts.contentType && !contentTypeProblem(opts.contentType) ? opts.contentType : DEFAULT_CONTENT_TYPE;
  const blobKey = newBlobKey(opts.projectId);
  const store = await getBlobStore();
  await store.put(blobKey, opts.bytes, { size: opts.bytes.byteLength, contentType });
  discardOnRollback(db, blobKey);
  await db.insert(diskAttachments).values({
    projectId: opts.projectId,
    eventId: opts.eventId,
    name: opts.name,
    blobKey,
    sizeBytes: opts.bytes.byteLength,
    contentType,
  });
  return { path: `${opts.eventId}/${opts.name}`, size_bytes: opts.bytes.byteLength, content_type: contentType };
}
