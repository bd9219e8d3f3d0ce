import { z } from "zod";
import { wellFormed } from "@/lib/text/well-formed";
import { fieldError } from "@/lib/disk/field-error";
import { PATH_INPUT_MAX_CHARS, PATH_MAX_BYTES, SEGMENT_MAX_BYTES } from "@/lib/disk/limits";

export const REF_SCHEME = "disk://";
/** Paths starting with this are inbound email attachments (`evt_…/name`), never written by file_put. */
export const ATTACHMENT_PREFIX = "evt_";

export const refOf = (path: string) => `${REF_SCHEME}${path}`;
export const stripRef = (pathOrRef: string) => (pathOrRef.startsWith(REF_SCHEME) ? pathOrRef.slice(REF_SCHEME.length) : pathOrRef);

/**
 * The path a path or `disk://` reference names, as files are stored: in Unicode NFC. `café` written decomposed (NFD,
 * as macOS names files) and composed looks the same wherever a path is shown, so the two spellings must be one file;
 * every way in (the tools, REST, the dashboard) takes its path from here (migration 0029 did the same to stored ones).
 * Inbound attachments (`evt_…/name`) keep their bytes: the name is the one the event gave, copied from it, and stored
 * as the email spelled it.
 */
export function diskPath(pathOrRef: string): string {
  const path = stripRef(pathOrRef);
  return path.startsWith(ATTACHMENT_PREFIX) ? path : path.normalize("NFC");
}

/**
 * The path a path or `disk://` reference names (diskPath), valid in that spelling or a validation_error naming `path`.
 * Every way to a file checks here, after normalising: NFC can lengthen a name (U+0958 and U+FB2C each become two or
 * three code points), so a name that fits as sent may not fit as stored.
 */
export function checkedDiskPath(pathOrRef: string): string {
  const path = diskPath(pathOrRef);
  const problem = pathProblem(path);
  if (problem) throw fieldError("path", problem);
  return path;
}

/** A file_list prefix or dashboard folder spelled as stored paths are (diskPath), so NFD text finds the NFC files. */
export const diskPrefix = (prefix: string) => prefix.normalize("NFC");

const PATH_TOO_LONG = `a full path (folders and file name together) can be at most ${PATH_MAX_BYTES} bytes`;

/**
 * A path as a field takes it, before diskPath: any text up to PATH_INPUT_MAX_CHARS (a longer one cannot fit even
 * once normalised), then spelled as stored and checked in that spelling by pathProblem or checkedDiskPath.
 */
export const pathText = () => z.string().max(PATH_INPUT_MAX_CHARS, PATH_TOO_LONG);

/**
 * Why `path` is not a valid disk path, or null. Relative, `/`-separated, no `.`/`..`/empty segments (nor any that
 * percent-decode to one: a path pasted into a URL must not turn into traversal), no backslash or control characters,
 * at most 1024 bytes (255 per segment). Paths never reach the filesystem (objects are stored by id), but a path that
 * looks like traversal is refused anyway so no client is ever surprised by what it means.
 *
 * The words are read twice: by an agent after the field's name (`path: a file or folder name can be…`) and by an
 * owner on the upload's row as a sentence. So they speak of files and folders, not segments or surrogates.
 */
export function pathProblem(path: string): string | null {
  if (path.length === 0) return "must not be empty";
  if (!wellFormed(path)) return "contains a character that is not valid text (a lone surrogate) and cannot be stored";
  if (Buffer.byteLength(path) > PATH_MAX_BYTES) return PATH_TOO_LONG;
  if (/\p{Cc}/u.test(path)) return "a file or folder name cannot contain control characters such as line breaks or tabs";
  if (path.includes("\\")) return "a file or folder name cannot contain a backslash; separate folders with /";
  if (path.startsWith("/")) return "a path cannot start with /; write folder/file.txt";
  for (const segment of path.split("/")) {
    if (segment === "") return "a file or folder name cannot be empty: no // and no / at the end";
    if (segment === "." || segment === "..") return "a file or folder cannot be named . or ..";
    if (Buffer.byteLength(segment) > SEGMENT_MAX_BYTES) return `a file or folder name can be at most ${SEGMENT_MAX_BYTES} bytes`;
  }
  if (
    path.includes("%") &&
    percentDecoded(path)
      .split("/")
      .some((s) => s === "." || s === "..")
  ) {
    return "a file or folder cannot be named . or .., nor spelled that way with percent-encoding (%2e, %2f)";
  }
  return null;
}

/** `path` as a URL would decode it; where it is not valid percent-encoding as a whole, its dots and slashes alone. */
function percentDecoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path.replace(/%2e/gi, ".").replace(/%2f/gi, "/");
  }
}

export type DiskTarget = { kind: "file"; path: string } | { kind: "attachment"; path: string; eventId: string; name: string };

/** A valid path as a project file or an inbound attachment (`evt_…/name`); null for `evt_…` without a name. */
export function targetOf(path: string): DiskTarget | null {
  if (!path.startsWith(ATTACHMENT_PREFIX)) return { kind: "file", path };
  const slash = path.indexOf("/");
  if (slash < 0) return null;
  return { kind: "attachment", path, eventId: path.slice(0, slash), name: path.slice(slash + 1) };
}
