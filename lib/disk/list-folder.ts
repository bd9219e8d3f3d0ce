import { sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { likePrefix } from "@/lib/disk/page-cursor";
import { diskPrefix } from "@/lib/disk/path-rules";

export interface FolderEntry {
  name: string;
  /** A folder holds `files` files (at any depth); a file is one. */
  isFolder: boolean;
  files: number;
  sizeBytes: number;
  contentType: string | null;
  updatedAt: Date;
}

const LIMIT = 1000;

/**
 * One level of the file tree under `folder` (`""` or `reports/2026/`): sub-folders (grouped by the next `/`) and
 * the files directly in it, folders first, each in byte order (names inherit the path's "C" collation). Capped at
 * 1,000 entries (`truncated`).
 */
export async function listFolder(db: Executor, opts: { actor: Actor; folder: string }) {
  const folder = diskPrefix(opts.folder);
  // Postgres counts characters, JavaScript's length UTF-16 units: a character outside the BMP (an emoji) is two.
  const from = [...folder].length + 1;
  const rows = await query<{ name: string; isFolder: boolean; files: number; bytes: number; contentType: string | null; updatedAt: Date }>(
    db,
    sql`select split_part(substr(path, ${from}::int), '/', 1) as name,
               strpos(substr(path, ${from}::int), '/') > 0 as is_folder,
               count(*)::int as files, sum(size_bytes)::bigint as bytes,
               min(content_type) as content_type, max(updated_at) as updated_at
        from disk_files where project_id = ${opts.actor.projectId} and path like ${likePrefix(folder)}
        group by 1, 2 order by 2 desc, 1 limit ${LIMIT + 1}`,
  );
  const entries: FolderEntry[] = rows.slice(0, LIMIT).map((r) => ({
    name: r.name,
    isFolder: r.isFolder,
    files: r.files,
    sizeBytes: r.bytes,
    contentType: r.isFolder ? null : r.contentType,
    updatedAt: r.updatedAt,
  }));
  return { entries, truncated: rows.length > LIMIT };
}
