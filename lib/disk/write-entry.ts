import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { kvEntries, type KvEntry } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { fieldError } from "@/lib/disk/field-error";
import { VALUE_MAX_BYTES } from "@/lib/disk/limits";
import { reserveUsage } from "@/lib/disk/usage";

export interface WriteEntryOptions {
  actor: Actor;
  key: string;
  value: unknown;
  /** The argument that carried the value, for error messages (`value` or `state`). */
  valueField: string;
  ttlSeconds?: number;
  note?: string | null;
  /** Optimistic concurrency: the version the caller last read; 0 means "must not exist yet". */
  ifVersion?: number;
}

/** What callers need back; never the value itself (up to 256 KB for nothing). */
const written = { key: kvEntries.key, sizeBytes: kvEntries.sizeBytes, version: kvEntries.version, expiresAt: kvEntries.expiresAt, updatedAt: kvEntries.updatedAt };
export type WrittenEntry = { key: string; sizeBytes: number; version: number; expiresAt: Date | null; updatedAt: Date };

const isLive = (row: Pick<KvEntry, "expiresAt">, now: Date) => !row.expiresAt || row.expiresAt > now;

/**
 * The one write path for kv_set and state_save. The value is stored as its JSON text. The existing row is locked
 * first (or the new one inserted), then the usage row: every writer takes locks in that order.
 */
export async function writeEntry(db: Executor, opts: WriteEntryOptions): Promise<WrittenEntry> {
  const projectId = opts.actor.projectId;
  const text = JSON.stringify(opts.value ?? null);
  const size = Buffer.byteLength(text);
  if (size > VALUE_MAX_BYTES) {
    throw fieldError(opts.valueField, `is ${size} bytes once serialised; the limit is ${VALUE_MAX_BYTES} (256 KB)`, "Store large content with file_put and keep its path here.");
  }
  const now = new Date();
  const expiresAt = opts.ttlSeconds ? new Date(now.getTime() + opts.ttlSeconds * 1000) : null;
  const where = and(eq(kvEntries.projectId, projectId), eq(kvEntries.key, opts.key));

  for (let attempt = 0; attempt < 5; attempt++) {
    const [current] = await db
      .select({ version: kvEntries.version, sizeBytes: kvEntries.sizeBytes, expiresAt: kvEntries.expiresAt })
      .from(kvEntries)
      .where(where)
      .for("update");
    if (current) {
      const live = isLive(current, now);
      checkVersion(opts, live ? current.version : 0);
      const [row] = await db
        .update(kvEntries)
        .set({
          value: text,
          sizeBytes: size,
          version: live ? current.version + 1 : 1,
          note: opts.note ?? null,
          expiresAt,
          updatedAt: now,
          ...(live ? {} : { createdAt: now }),
        })
        .where(where)
        .returning(written);
      // Usage last: its row is the project's hot lock, held from here to commit.
      await reserveUsage(db, projectId, { bytes: size - current.sizeBytes }, opts.key);
      return row;
    }
    checkVersion(opts, 0);
    const [row] = await db
      .insert(kvEntries)
      .values({ projectId, key: opts.key, value: text, sizeBytes: size, version: 1, note: opts.note ?? null, expiresAt, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning(written);
    if (row) {
      await reserveUsage(db, projectId, { keys: 1, bytes: size }, opts.key);
      return row;
    }
    // Another writer inserted the key since our read: lock its row and go again.
  }
  throw new AppError("CONFLICT", `Key ${opts.key} is being written by others right now.`, { fix: "Retry the call." });
}

function checkVersion(opts: WriteEntryOptions, current: number) {
  if (opts.ifVersion === undefined || opts.ifVersion === current) return;
  throw new AppError(
    "CONFLICT",
    current === 0
      ? `${opts.key} does not exist (if_version ${opts.ifVersion} expected it at that version).`
      : `${opts.key} is at version ${current}, not ${opts.ifVersion}: someone else wrote it since you read it.`,
    { fix: "Read it again (kv_get / state_load), merge your change, and retry with the version you read.", details: { current_version: current } },
  );
}
