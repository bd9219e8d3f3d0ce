import { and, desc, eq, gte, isNotNull, sql, sum } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { intakeRefusals, type RefusalReason, type Source, sources } from "@/lib/db/schema/events";
import { hookTokenHash, HOOK_TOKEN_PATTERN } from "@/lib/sources/hook-token";

const HOUR = 3600_000;

/**
 * Counts refused deliveries (one, or `count` added up by the caller) in their source's bucket for this hour. Called
 * after the refusal is decided, outside any transaction: a failure to count is logged and never changes what the
 * sender is told.
 */
export async function recordRefusal(
  db: Executor,
  opts: { source: Pick<Source, "id" | "projectId" | "name">; reason: RefusalReason; detail: string; now?: Date; count?: number },
): Promise<void> {
  const n = opts.count ?? 1;
  const now = opts.now ?? new Date();
  const hour = new Date(Math.floor(now.getTime() / HOUR) * HOUR);
  const detail = opts.detail.slice(0, 500);
  try {
    await db
      .insert(intakeRefusals)
      .values({
        projectId: opts.source.projectId,
        sourceId: opts.source.id,
        source: opts.source.name,
        reason: opts.reason,
        hour,
        count: n,
        lastAt: now,
        lastDetail: detail,
      })
      .onConflictDoUpdate({
        target: [intakeRefusals.projectId, intakeRefusals.sourceId, intakeRefusals.reason, intakeRefusals.hour],
        set: { count: sql`${intakeRefusals.count} + ${n}`, lastAt: now, lastDetail: detail },
      });
  } catch (err) {
    console.error("[brynth] could not count a refused webhook delivery:", err);
  }
}

/** The removed source a URL token belonged to, if any: its deliveries are refused as an unknown source. */
export async function findRemovedSourceByToken(db: Executor, token: string): Promise<Pick<Source, "id" | "projectId" | "name"> | null> {
  if (!HOOK_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ id: sources.id, projectId: sources.projectId, name: sources.name })
    .from(sources)
    .where(and(eq(sources.tokenHash, hookTokenHash(token)), isNotNull(sources.removedAt)))
    .limit(1);
  return row ?? null;
}

/** Refused deliveries since a moment (the Overview's last 24 h: whole hours, so the bucket of `since` counts in full). */
export async function countRefusals(db: Executor, opts: { projectId: string; since: Date }): Promise<number> {
  const [row] = await db
    .select({ n: sum(intakeRefusals.count) })
    .from(intakeRefusals)
    .where(and(eq(intakeRefusals.projectId, opts.projectId), gte(intakeRefusals.hour, hourOf(opts.since))));
  return Number(row?.n ?? 0);
}

/** The refusal buckets since a moment, newest first, for the Refused deliveries screen. */
export async function listRefusals(db: Executor, opts: { projectId: string; since: Date; reason?: RefusalReason; limit?: number }) {
  const where = [eq(intakeRefusals.projectId, opts.projectId), gte(intakeRefusals.hour, hourOf(opts.since))];
  if (opts.reason) where.push(eq(intakeRefusals.reason, opts.reason));
  return db
    .select()
    .from(intakeRefusals)
    .where(and(...where))
    .orderBy(desc(intakeRefusals.lastAt), desc(intakeRefusals.id))
    .limit(opts.limit ?? 200);
}

const hourOf = (d: Date) => new Date(Math.floor(d.getTime() / HOUR) * HOUR);
