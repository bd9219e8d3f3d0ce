import { inArray, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { diskTrash } from "@/lib/db/schema/disk";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { purgeExpiredKeys } from "@/lib/disk/usage";
import { at } from "@/lib/disk/sql-time";
import { LATE_PUT_MS } from "@/lib/disk/limits";

const BATCH = 200;
const LINK_HISTORY_MS = 30 * 24 * 3600_000;

/**
 * The disk janitor's pass: abandoned uploads (expired rows) go to the trash, expired keys are deleted and their
 * space freed, links that ended 30 days ago are forgotten, and due trash is erased from the store. Safe on several
 * instances at once: rows are claimed by DELETE … RETURNING or skipped when locked, and deleting an object twice is
 * harmless. No transaction stays open while the store is called (on PGlite that would stall every other query).
 */
export async function sweepDisk(db: Db, now = new Date()): Promise<{ uploads: number; keys: number; blobs: number }> {
  const uploads = await query<{ blobKey: string }>(
    db,
    sql`with gone as (
          delete from disk_uploads where id in (
            select id from disk_uploads where expires_at <= ${at(new Date(now.getTime() - LATE_PUT_MS))} limit ${BATCH} for update skip locked)
          returning project_id, blob_key)
        insert into disk_trash (blob_key, project_id, not_before)
        select blob_key, project_id, ${at(now)} from gone on conflict do nothing returning blob_key`,
  );

  let keys = 0;
  const projects = await query<{ projectId: string }>(db, sql`select distinct project_id from kv_entries where expires_at <= ${at(now)} limit ${BATCH}`);
  for (const p of projects) keys += await db.transaction((tx) => purgeExpiredKeys(tx, p.projectId));

  // Links are kept a while after they end so the owner can see what was shared; then they go.
  await query(
    db,
    sql`delete from disk_links where id in (
          select id from disk_links where expires_at <= ${at(new Date(now.getTime() - LINK_HISTORY_MS))} limit ${BATCH})`,
  );

  const due = await db.select({ blobKey: diskTrash.blobKey }).from(diskTrash).where(lte(diskTrash.notBefore, now)).limit(BATCH);
  const store = await getBlobStore();
  const erased: string[] = [];
  for (const { blobKey } of due) {
    try {
      await store.delete(blobKey);
      erased.push(blobKey);
    } catch (err) {
      console.error("[brynth] disk janitor could not erase", blobKey, err);
    }
  }
  if (erased.length) await db.delete(diskTrash).where(inArray(diskTrash.blobKey, erased));
  return { uploads: uploads.length, keys, blobs: erased.length };
}
