import { and, asc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { sources, type Source } from "@/lib/db/schema/events";
import { notFound } from "@/lib/errors";
import { notifiedCache } from "@/lib/db/notified-cache";
import { HOOK_TOKEN_PATTERN, hookTokenHash } from "@/lib/sources/hook-token";

export function findActiveSources(db: Executor, projectId: string): Promise<Source[]> {
  return db
    .select()
    .from(sources)
    .where(and(eq(sources.projectId, projectId), isNull(sources.removedAt)))
    .orderBy(asc(sources.name));
}

export async function findSourceByName(db: Executor, projectId: string, name: string): Promise<Source> {
  const [row] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.projectId, projectId), eq(sources.name, name), isNull(sources.removedAt)));
  if (!row) throw notFound(`Source ${name}`, "List the project's sources with source_list.");
  return row;
}

/** Live sources by token hash, so a busy webhook costs no lookup; removing or rotating one invalidates them. */
export const sourceCache = notifiedCache<Source>("brynth_sources", { maxAgeMs: 10_000 });

/**
 * The active webhook source behind a URL token, or null: unknown and removed look the same. A lookup the cache
 * cannot answer is first charged with `charge` (it may refuse by throwing), and refunded when it finds a webhook
 * source: the database is asked only within the caller's allowance.
 */
export async function findSourceByToken(db: Executor, token: string, charge?: () => () => void): Promise<Source | null> {
  if (!HOOK_TOKEN_PATTERN.test(token)) return null;
  const hash = hookTokenHash(token);
  const hit = sourceCache.get(hash);
  if (hit) return hit;
  const refund = charge?.();
  const epoch = sourceCache.epoch();
  const [row] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.tokenHash, hash), isNull(sources.removedAt)));
  if (row) sourceCache.set(epoch, hash, row);
  if (row?.type === "webhook") refund?.();
  return row ?? null;
}
