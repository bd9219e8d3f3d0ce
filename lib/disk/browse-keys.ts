import { sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { queryRows } from "@/lib/db/rows";
import { likePrefix } from "@/lib/disk/page-cursor";
import { at } from "@/lib/disk/sql-time";

export interface KeyRow {
  key: string;
  sizeBytes: number;
  version: number;
  note: string | null;
  expiresAt: Date | null;
  updatedAt: Date;
}

interface Raw {
  key: string;
  size_bytes: number;
  version: number;
  note: string | null;
  expires_at: Date | string | null;
  updated_at: Date | string;
}

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
  const raw = await queryRows<Raw>(
    db,
    sql`select key, size_bytes, version, note, expires_at, updated_at from kv_entries
        where project_id = ${opts.actor.projectId} and key like ${likePrefix(opts.prefix)} ${bound}
          and (expires_at is null or expires_at > ${at()})
        order by key ${backwards ? sql`desc` : sql`asc`} limit ${opts.limit + 1}`,
  );
  const more = raw.length > opts.limit;
  const page = raw.slice(0, opts.limit);
  if (backwards) page.reverse();
  const rows = page.map((r) => ({
    key: r.key,
    sizeBytes: Number(r.size_bytes),
    version: Number(r.version),
    note: r.note,
    expiresAt: r.expires_at === null ? null : new Date(r.expires_at),
    updatedAt: new Date(r.updated_at),
  }));
  return {
    rows,
    hasPrev: backwards ? more : opts.after !== undefined,
    hasNext: backwards ? true : more,
  };
}
