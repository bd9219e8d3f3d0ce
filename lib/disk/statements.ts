import type { KvEntry } from "@/lib/db/schema/disk";
import { statement } from "@/lib/db/statement";

/*
 * The disk module's hand-written statements, all in one place (lib/db/statement.ts): kv_get's point read and
 * kv_set's replace, where building the query with drizzle cost more CPU than the database spends on it. Rows come
 * back in drizzle's shape. Everything else in lib/disk uses drizzle's builder.
 */

export type EntryRow = Pick<KvEntry, "value" | "sizeBytes" | "version" | "note" | "expiresAt" | "createdAt" | "updatedAt">;
const ENTRY_COLUMNS = "value, size_bytes, version, note, expires_at, created_at, updated_at";

/** One prepared text, not a builder query (the read path's largest CPU cost). */
export const selectEntry = statement<EntryRow, [projectId: string, key: string]>(`select ${ENTRY_COLUMNS} from kv_entries where project_id = $1 and key = $2`);

/** Any number of (project, key) pairs in one statement, answered by their position (`n`, from 1). */
export const selectEntries = statement<EntryRow & { n: number }, [pairs: string]>(`
  select r.n::int as n, ${ENTRY_COLUMNS.replace(/(\w+)/g, "e.$1")}
  from jsonb_array_elements($1::jsonb) with ordinality as r(pair, n)
  join kv_entries e on e.project_id = r.pair->>0 and e.key = (r.pair->>1) collate "C"`);

/** What a write gives back; never the value itself (up to 256 KB for nothing). */
export type WrittenEntry = Pick<KvEntry, "key" | "sizeBytes" | "version" | "expiresAt" | "updatedAt">;

export type ReplacedRow = { currentVersion: number; currentSize: number; live: boolean } & (WrittenEntry | { [K in keyof WrittenEntry]: null });

/**
 * Replacing an existing key in one statement: lock the row, then overwrite it unless `if_version` ($8) differs
 * from its version (0 once expired: an expired key counts as absent, though its versions go on counting, so a
 * version read before it expired never matches the new value).
 * The row as it was comes back either way — its size for the usage delta, its version for the CONFLICT — and
 * no row at all means the key does not exist.
 */
export const replaceEntry = statement<
  ReplacedRow,
  [projectId: string, key: string, value: string, size: number, note: string | null, expiresAt: string | null, now: string, ifVersion: number | null]
>(`
  with current as (
    select version, size_bytes, (expires_at is null or expires_at > $7::timestamptz) as live
    from kv_entries where project_id = $1 and key = $2 for update
  ), replaced as (
    update kv_entries k set value = $3, size_bytes = $4, note = $5, expires_at = $6::timestamptz, updated_at = $7::timestamptz,
      version = current.version + 1,
      created_at = case when current.live then k.created_at else $7::timestamptz end
    from current
    where k.project_id = $1 and k.key = $2 and ($8::int is null or $8::int = case when current.live then current.version else 0 end)
    returning k.key, k.size_bytes, k.version, k.expires_at, k.updated_at
  )
  select current.version as current_version, current.size_bytes as current_size, current.live, replaced.*
  from current left join replaced on true`);
