import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { blobErasures } from "@/lib/db/schema/blob-erasures";
import { getBlobStore } from "@/lib/blob/get-blob-store";

const BATCH = 20;

/**
 * The janitor's pass over queued prefix erasures (lib/blob/queue-erasure.ts): each due prefix is emptied in the
 * store; a row whose final pass this was goes, the others wait for their final pass. A prefix the store fails on
 * keeps its row and is tried again on the next pass. Several instances may run it at once: emptying a prefix twice
 * is harmless, and a row is only removed as it was read. No transaction is open while the store works.
 */
export async function sweepErasures(db: Db, now = new Date()): Promise<{ emptied: string[]; failed: string[] }> {
  const due = await db.select().from(blobErasures).where(lte(blobErasures.notBefore, now)).orderBy(asc(blobErasures.notBefore)).limit(BATCH);
  if (due.length === 0) return { emptied: [], failed: [] };
  const store = await getBlobStore();
  const emptied: string[] = [];
  const failed: string[] = [];
  for (const row of due) {
    try {
      await store.deletePrefix(row.prefix);
    } catch (err) {
      console.error("[brynth] blob janitor could not empty", row.prefix, err);
      failed.push(row.prefix);
      continue;
    }
    emptied.push(row.prefix);
    const same = and(eq(blobErasures.prefix, row.prefix), eq(blobErasures.finalAt, row.finalAt));
    if (row.finalAt <= now) await db.delete(blobErasures).where(same);
    else await db.update(blobErasures).set({ notBefore: row.finalAt }).where(same);
  }
  return { emptied, failed };
}
