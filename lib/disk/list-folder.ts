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

/** Entries of one folder page on the Disk screen. */
export const FOLDER_PAGE = 1000;

/**
 * Where a folder page starts or ends, kept in the URL: `d:` or `f:` and the entry's name. A folder and a file may
 * share a name (`r/` beside `r`), so the kind is part of the position. Anything else from the URL is no cursor.
 */
export const folderCursor = (e: Pick<FolderEntry, "name" | "isFolder">) => `${e.isFolder ? "d" : "f"}:${e.name}`;
const readCursor = (c: string | undefined) => (c && /^[df]:./s.test(c) ? { isFile: c[0] === "f", name: c.slice(2) } : undefined);

/**
 * One level of the file tree under `folder` (`""` or `reports/2026/`): sub-folders (grouped by the next `/`) and
 * the files directly in it, folders first, each in byte order (names inherit the path's "C" collation), a page of
 * `limit` after `after` or before `before` (cursors from folderCursor), as browseKeys pages keys.
 */
export async function listFolder(db: Executor, opts: { actor: Actor; folder: string; after?: string; before?: string; limit?: number }) {
  const folder = diskPrefix(opts.folder);
  const limit = opts.limit ?? FOLDER_PAGE;
  const before = readCursor(opts.before);
  const after = before ? undefined : readCursor(opts.after);
  // Postgres counts characters, JavaScript's length UTF-16 units: a character outside the BMP (an emoji) is two.
  const from = [...folder].length + 1;
  // Folders first is `not is_folder` ascending: a row comparison orders the kind, then the name, in one bound.
  const bound = before
    ? sql`where (not is_folder, name) < (${before.isFile}::boolean, ${before.name})`
    : after
      ? sql`where (not is_folder, name) > (${after.isFile}::boolean, ${after.name})`
      : sql``;
  const order = before ? sql`desc` : sql`asc`;
  const raw = await query<{ name: string; isFolder: boolean; files: number; bytes: number; contentType: string | null; updatedAt: Date }>(
    db,
    sql`select * from (
          select split_part(substr(path, ${from}::int), '/', 1) as name,
                 strpos(substr(path, ${from}::int), '/') > 0 as is_folder,
                 count(*)::int as files, sum(size_bytes)::bigint as bytes,
                 min(content_type) as content_type, max(updated_at) as updated_at
          from disk_files where project_id = ${opts.actor.projectId} and path like ${likePrefix(folder)}
          group by 1, 2) entries
        ${bound}
        order by not is_folder ${order}, name ${order} limit ${limit + 1}`,
  );
  const more = raw.length > limit;
  const rows = raw.slice(0, limit);
  if (before) rows.reverse();
  const entries: FolderEntry[] = rows.map((r) => ({
    name: r.name,
    isFolder: r.isFolder,
    files: r.files,
    sizeBytes: r.bytes,
    contentType: r.isFolder ? null : r.contentType,
    updatedAt: r.updatedAt,
  }));
  return { entries, hasPrev: before ? more : after !== undefined, hasNext: before ? true : more };
}
