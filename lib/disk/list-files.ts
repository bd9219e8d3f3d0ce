import { sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { DiskFile } from "@/lib/db/schema/disk";
import { query } from "@/lib/db/statement";
import { fileView } from "@/lib/disk/file-view";
import { decodeCursor, encodeCursor, likePrefix } from "@/lib/disk/page-cursor";
import { diskPrefix } from "@/lib/disk/path-rules";

type Row = Pick<DiskFile, "path" | "sizeBytes" | "contentType" | "updatedAt">;

/** file_list: files whose path starts with `prefix`, in byte order (path is collated "C"), after the cursor. */
export async function listFiles(db: Executor, opts: { actor: Actor; prefix: string; cursor?: string; limit: number }) {
  const prefix = diskPrefix(opts.prefix);
  const after = decodeCursor(opts.cursor, prefix);
  const rows = await query<Row>(
    db,
    sql`select path, size_bytes, content_type, updated_at from disk_files
        where project_id = ${opts.actor.projectId} and path like ${likePrefix(prefix)}
          ${after === null ? sql`` : sql`and path > ${after}`}
        order by path limit ${opts.limit + 1}`,
  );
  const page = rows.slice(0, opts.limit);
  return {
    items: page.map(fileView),
    next_cursor: rows.length > opts.limit ? encodeCursor(page[page.length - 1].path) : null,
  };
}
