import type { PageKey } from "@/lib/db/keyset";
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

/**
 * A timestamptz as PostgreSQL prints it (`2026-12-03 08:03:42.492+00`), each field in range: the shape alone let
 * `2026-99-99` or `25:61` through to the query, which failed the page.
 */
function isTimestampText(at: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d{1,6})?([+-]\d\d(:?\d\d)?|Z)$/.exec(at);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number);
  const day = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && sec < 60;
}
