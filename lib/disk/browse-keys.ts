import { sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { KvEntry } from "@/lib/db/schema/disk";
import { query } from "@/lib/db/statement";
import { likePrefix } from "@/lib/disk/page-cursor";
import { at } from "@/lib/disk/sql-time";

export type KeyRow = Pick<KvEntry, "key" | "sizeBytes" | "version" | "note" | "expiresAt" | "updatedAt">;

/**
 * A page of live keys for the dashboard, in byte order, after `after` or before `before` (so Previous works with
 * cursors kept in the URL). `hasPrev`/`hasNext` tell whether those links lead anywhere.
 */
export async function browseKeys(
  db: Executor,
  opts: { actor: Actor; prefix: string; after?: string; before?: string; limit: number },
): Promise<{ rows: KeyRow[]; hasPrev: boolean; hasNext: boolean }> {
  const backwards = opts.before !== undefined;
  const bound = backwards ? sql`and key < ${opts.before}` : opts.after !== undefined ? sql`and key > ${opts.after}` : sql``;
  const raw = await query<KeyRow>(
    db,
    sql`select key, size_bytes, version, note, expires_at, updated_at from kv_entries
        where project_id = ${opts.actor.projectId} and key like ${likePrefix(opts.prefix)} ${bound}
          and (expires_at is null or expires_at > ${at()})
        order by key ${backwards ? sql`desc` : sql`asc`} limit ${opts.limit + 1}`,
  );
  const more = raw.length > opts.limit;
  const rows = raw.slice(0, opts.limit);
  if (backwards) rows.reverse();
  return {
    rows,
    hasPrev: backwards ? more : opts.after !== undefined,
    hasNext: backwards ? true : more,
  };
}
