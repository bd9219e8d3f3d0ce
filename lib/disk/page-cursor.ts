import { unstorableText } from "@/lib/db/storable";
import { fieldError } from "@/lib/disk/field-error";

/** Opaque cursors: the last key or path of the page, base64url-encoded. */
export const encodeCursor = (last: string) => Buffer.from(last, "utf8").toString("base64url");

/** The key or path a cursor continues after, for a listing of `prefix`; null for the first page. */
export function decodeCursor(cursor: string | undefined, prefix: string): string | null {
  if (cursor === undefined || cursor === "") return null;
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  // A hand-made cursor decodes to any text; one the query cannot hold (a NUL) failed it as a 500.
  if (!text || encodeCursor(text) !== cursor || unstorableText(text) !== null)
    throw fieldError("cursor", "is not a next_cursor this API returned", "Pass next_cursor back unchanged, or omit it for the first page.");
  // Every cursor a listing returns is one of its own keys. Another prefix's would answer an empty or partial page
  // with next_cursor null, which reads as "nothing more" rather than as a mistake.
  if (!text.startsWith(prefix))
    throw fieldError(
      "cursor",
      "was returned for another prefix",
      "Repeat the call with the prefix that returned this next_cursor, or omit cursor for the first page.",
    );
  return text;
}

/** `prefix%` for LIKE, with the pattern characters of the prefix escaped. */
export const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
