import type { LedgerEntry } from "@/lib/db/schema/ledger";
import { entryView } from "@/lib/tools/ledger/entry-view";

export const EXPORT_COLUMNS = [
  "seq",
  "ts",
  "op",
  "actor_type",
  "actor_id",
  "key_id",
  "agent",
  "platform",
  "via",
  "subject",
  "input_digest",
  "output_digest",
  "prev_hash",
  "hash",
] as const;

/**
 * One CSV field. Agent labels and subjects come from agents, so a leading = + - @ (after any white space) or tab or
 * CR is neutralised: spreadsheets would otherwise run it as a formula when the owner opens the export. A field
 * holding a separator any locale's spreadsheet splits on (`,`, `;` where the decimal mark is a comma, tab) is
 * quoted, lest "a;=cmd" open a cell of its own that starts with `=`.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (/^\s*[=+\-@]|^[\t\r]/.test(s)) s = `'${s}`;
  return /[",;\t\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvHeader = () => `${EXPORT_COLUMNS.join(",")}\r\n`;

export function csvRow(e: LedgerEntry): string {
  const v = entryView(e) as Record<string, unknown>;
  return `${EXPORT_COLUMNS.map((c) => csvField(v[c])).join(",")}\r\n`;
}

export const ndjsonRow = (e: LedgerEntry) => `${JSON.stringify(entryView(e))}\n`;
