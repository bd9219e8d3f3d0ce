import { and, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { apiKeys, type ApiKey } from "@/lib/db/schema/keys";

/**
 * A live key not used since a moment: its last call, or its creation when it never made one, is older. A key made
 * yesterday and not used yet is not "unused for 30 days". The bound goes as text: a Date inside a hand-written
 * fragment has no column to map it, and postgres.js refuses it.
 */
const unusedSince = (since: Date): SQL =>
  sql`${isNull(apiKeys.revokedAt)} and coalesce(${apiKeys.lastUsedAt}, ${apiKeys.createdAt}) < ${since.toISOString()}::timestamptz`;

export async function listKeys(db: Executor, opts: { actor: Pick<Actor, "projectId">; includeRevoked?: boolean; unusedSince?: Date }) {
  const where = [eq(apiKeys.projectId, opts.actor.projectId)];
  if (!opts.includeRevoked) where.push(isNull(apiKeys.revokedAt));
  if (opts.unusedSince) where.push(unusedSince(opts.unusedSince));
  return db
    .select()
    .from(apiKeys)
    .where(and(...where))
    .orderBy(desc(apiKeys.createdAt));
}

/** The Overview's "Active API keys": the rows listKeys gives, counted rather than read (every row, every load). */
export async function countActiveKeys(db: Executor, opts: { actor: Pick<Actor, "projectId"> }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.projectId, opts.actor.projectId), isNull(apiKeys.revokedAt)));
  return Number(row?.n ?? 0);
}

/** The Overview's "keys unused for 30 days": the same rows as listKeys with `unusedSince`. */
export async function countUnusedKeys(db: Executor, opts: { actor: Pick<Actor, "projectId">; since: Date }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.projectId, opts.actor.projectId), unusedSince(opts.since)));
  return Number(row?.n ?? 0);
}

/** The public shape of a key: never the hash. */
export const keyView = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  mailbox_id: k.mailboxId,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
});
