import { sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { KvEntry } from "@/lib/db/schema/disk";
import { query } from "@/lib/db/statement";
import { decodeCursor, encodeCursor, likePrefix } from "@/lib/disk/page-cursor";
import { at } from "@/lib/disk/sql-time";

type Row = Pick<KvEntry, "key" | "sizeBytes" | "version" | "note" | "expiresAt" | "updatedAt">;

/**
 * Live keys starting with `prefix`, in byte order (the column is collated "C"), after the cursor. The LIKE prefix
 * and the key range both use the primary-key index.
 */
export async function listKeys(db: Executor, opts: { actor: Actor; prefix: string; cursor?: string; limit: number }) {
  const after = decodeCursor(opts.cursor, opts.prefix);
  const rows = await query<Row>(
    db,
    sql`select key, size_bytes, version, note, expires_at, updated_at from kv_entries
        where project_id = ${opts.actor.projectId}
          and key like ${likePrefix(opts.prefix)}
          ${after === null ? sql`` : sql`and key > ${after}`}
          and (expires_at is null or expires_at > ${at()})
        order by key limit ${opts.limit + 1}`,
  );
  const page = rows.slice(0, opts.limit);
  return {
    items: page.map((r) => ({
      key: r.key,
      size_bytes: r.sizeBytes,
      expires_at: r.expiresAt?.toISOString() ?? null,
      updated_at: r.updatedAt.toISOString(),
      version: r.version,
      note: r.note,
    })),
    next_cursor: rows.length > opts.limit ? encodeCursor(page[page.length - 1].key) : null,
  };
}
