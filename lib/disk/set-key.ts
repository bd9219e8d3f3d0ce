import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/disk/field-error";
import { dotSegmentProblem, keyProblem, STATE_PREFIX } from "@/lib/disk/key-rules";
import { TTL_MAX_SECONDS } from "@/lib/disk/limits";
import { writeEntry } from "@/lib/disk/write-entry";

/** kv_set: saves any JSON value under a key; `state/…` belongs to state_save. */
export async function setKey(db: Executor, opts: { actor: Actor; key: string; value: unknown; ttlSeconds?: number; ifVersion?: number }) {
  const problem = keyProblem(opts.key) ?? dotSegmentProblem(opts.key);
  if (problem) throw fieldError("key", problem);
  if (opts.key.startsWith(STATE_PREFIX)) {
    throw fieldError("key", "keys under state/ belong to state_save", "Save task state with state_save, or pick a key outside state/.");
  }
  if (opts.ttlSeconds !== undefined && !(Number.isInteger(opts.ttlSeconds) && opts.ttlSeconds >= 1 && opts.ttlSeconds <= TTL_MAX_SECONDS)) {
    throw fieldError("ttl_seconds", `must be a whole number from 1 to ${TTL_MAX_SECONDS}`);
  }
  const row = await writeEntry(db, { ...opts, valueField: "value" });
  return { key: row.key, size_bytes: row.sizeBytes, expires_at: row.expiresAt?.toISOString() ?? null, version: row.version };
}
