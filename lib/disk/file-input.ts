import { AppError } from "@/lib/errors";
import { fieldError } from "@/lib/disk/field-error";
import { INLINE_MAX_BYTES } from "@/lib/disk/limits";
import { ATTACHMENT_PREFIX, checkedDiskPath } from "@/lib/disk/path-rules";

export const DEFAULT_CONTENT_TYPE = "application/octet-stream";
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[ -~]*)?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function contentTypeProblem(type: string): string | null {
  return type.length <= 255 && MIME.test(type) ? null : "must be a MIME type such as application/pdf";
}

/**
 * The path file_put and file_delete may write, from a path or `disk://` reference and spelled as stored, valid
 * (checkedDiskPath), and not under `evt_` (inbound attachments).
 */
export function writablePath(pathOrRef: string): string {
  const path = checkedDiskPath(pathOrRef);
  if (path.startsWith(ATTACHMENT_PREFIX)) {
    throw new AppError("PATH_RESERVED", `Paths starting with ${ATTACHMENT_PREFIX} are inbound email attachments and cannot be written.`, {
      fix: "Choose a path that does not start with evt_, e.g. attachments/<name>.",
    });
  }
  return path;
}

/**
 * Standard base64 with `=` padding, at most 1 MB decoded. Line breaks (as `base64` wraps its output) are
 * tolerated; any other character is refused rather than silently skipped as Buffer.from would.
 */
export function decodeBase64(text: string): Uint8Array {
  if (text.length > Math.ceil(INLINE_MAX_BYTES / 3) * 4 * 1.1) throw tooBig();
  const compact = text.replace(/\r?\n/g, "");
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw fieldError("content_base64", "is not valid standard base64 (A–Z a–z 0–9 + /, = padding)");
  }
  const bytes = Buffer.from(compact, "base64");
  if (bytes.byteLength > INLINE_MAX_BYTES) throw tooBig();
  return bytes;
}

const tooBig = () => fieldError("content_base64", "decodes to more than 1 MB", "Send files over 1 MB with upload: {size, content_type} instead.");
