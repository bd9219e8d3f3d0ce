import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { sql } from "drizzle-orm";
import { diskUsage, kvEntries } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { fieldError } from "@/lib/disk/field-error";
import { VALUE_MAX_BYTES } from "@/lib/disk/limits";
import { reserveUsage } from "@/lib/disk/usage";
import { replaceEntry, type WrittenEntry } from "@/lib/disk/statements";

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
const written = {
  key: kvEntries.key,
  sizeBytes: kvEntries.sizeBytes,
  version: kvEntries.version,
  expiresAt: kvEntries.expiresAt,
  updatedAt: kvEntries.updatedAt,
};

/**
 * The one write path for kv_set and state_save. The value is stored as its JSON text. The existing row is locked
 * first (or the new one inserted), then the usage row: every writer takes locks in that order.
 */
export async function writeEntry(db: Executor, opts: WriteEntryOptions): Promise<WrittenEntry> {
  const projectId = opts.actor.projectId;
  const text = JSON.stringify(opts.value ?? null);
  const size = Buffer.byteLength(text);
  if (size > VALUE_MAX_BYTES) {
    throw fieldError(
      opts.valueField,
      `is ${size} bytes once serialised; the limit is ${VALUE_MAX_BYTES} (256 KB)`,
      "Store large content with file_put and keep its path here.",
    );
  }
  const now = new Date();
  const expiresAt = opts.ttlSeconds ? new Date(now.getTime() + opts.ttlSeconds * 1000) : null;

  for (let attempt = 0; attempt < 5; attempt++) {
    const [current] = await replaceEntry(
      db,
      projectId,
      opts.key,
      text,
      size,
      opts.note ?? null,
      expiresAt?.toISOString() ?? null,
      now.toISOString(),
      opts.ifVersion ?? null,
    );
    if (current) {
      if (current.key === null) {
        checkVersion(opts, current.live ? current.currentVersion : 0); // the statement refused: it throws here
        continue;
      }
      // Usage last: its row is the project's hot lock, held from here to commit.
      await reserveUsage(db, projectId, { bytes: size - current.currentSize }, opts.key);
      return { key: current.key, sizeBytes: current.sizeBytes, version: current.version, expiresAt: current.expiresAt, updatedAt: current.updatedAt };
    }
    checkVersion(opts, 0);
    const [row] = await db
      .insert(kvEntries)
      .values({
        projectId,
        key: opts.key,
        value: text,
        sizeBytes: size,
        version: firstVersion(projectId),
        note: opts.note ?? null,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })
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

/**
 * A new key's version: 1 in a project that never deleted a key, else above every version a deleted key had
 * (kv_version_floor), so a key deleted and written again never repeats a version someone may still hold.
 */
const firstVersion = (projectId: string) =>
  sql<number>`(select coalesce(max(${diskUsage.kvVersionFloor}), 0) + 1 from ${diskUsage} where ${diskUsage.projectId} = ${projectId})`;

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
