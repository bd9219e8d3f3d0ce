import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { drainBackground } from "@/lib/db/background";
import { query } from "@/lib/db/statement";

/**
 * Tables left out of a project's fingerprint: rows the transport writes for every caller whatever the call does
 * (a key's `last_used_at`, MCP sessions), and the ledger head, which the background sealer moves.
 */
const SKIPPED = new Set(["api_keys", "mcp_sessions", "ledger_heads"]);
/**
 * What stands for a row: the whole row, except ledger entries, which the sealer updates after their commit (seq,
 * prev_hash, hash): an entry is the same entry once sealed, so its id stands for it.
 */
const ROW: Record<string, string> = { ledger_entries: "t.id::text" };

let statementText: string | undefined;

/** One statement over every table that has a `project_id` column, found in the catalog once per test file. */
async function fingerprintStatement(): Promise<string> {
  if (statementText) return statementText;
  const db = await getDb();
  const tables = await query<{ tableName: string }>(
    db,
    sql`select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'project_id' order by table_name`,
  );
  const parts = tables
    .map((t) => t.tableName)
    .filter((name) => !SKIPPED.has(name))
    .map((name) => {
      const row = ROW[name] ?? "t::text";
      return `select '${name}' as name, count(*)::int as rows, coalesce(md5(string_agg(${row}, ',' order by ${row})), '') as hash from "${name}" t where t.project_id = $1`;
    });
  statementText = parts.join(" union all ");
  return statementText;
}

export type Fingerprint = Record<string, string>;

/**
 * Row count and a hash of the rows of each of the project's tables, once the work earlier calls left behind
 * (ledger sealing, NOTIFYs) has run: two fingerprints differ exactly when a row of the project was added, changed
 * or removed in between.
 */
export async function projectFingerprint(projectId: string): Promise<Fingerprint> {
  await drainBackground();
  const db = await getDb();
  const text = await fingerprintStatement();
  const rows = await query<{ name: string; rows: number; hash: string }>(db, sql.raw(text.replaceAll("$1", `'${projectId.replace(/'/g, "''")}'`)));
  return Object.fromEntries(rows.map((r) => [r.name, `${r.rows}:${r.hash}`]));
}

/** The tables whose rows differ between two fingerprints, for a failure message. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
