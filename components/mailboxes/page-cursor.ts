import { isTimestampText, type PageKey } from "@/lib/db/keyset";
import { unstorableText } from "@/lib/db/storable";

/**
 * The Mailboxes screens' `?cursor=`: the last row's keyset key in base64url. Unsigned on purpose: every query it
 * feeds filters by the owner's project, so a hand-made cursor can only move within the owner's own rows.
 */
export const encodeCursor = (k: PageKey) => Buffer.from(JSON.stringify([k.at, k.id])).toString("base64url");

/** Null for a missing or malformed cursor: the first page. */
export function decodeCursor(cursor: string | undefined): PageKey | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (!Array.isArray(v) || typeof v[0] !== "string" || typeof v[1] !== "string" || !isTimestampText(v[0]) || unstorableText(v[1]) !== null) return null;
    return { at: v[0], id: v[1] };
  } catch {
    return null;
  }
}
