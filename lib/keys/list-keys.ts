import { and, desc, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { apiKeys, type ApiKey } from "@/lib/db/schema/keys";

export async function listKeys(db: Executor, opts: { actor: Pick<Actor, "projectId">; includeRevoked?: boolean }) {
  const where = [eq(apiKeys.projectId, opts.actor.projectId)];
  if (!opts.includeRevoked) where.push(isNull(apiKeys.revokedAt));
  return db
    .select()
    .from(apiKeys)
    .where(and(...where))
    .orderBy(desc(apiKeys.createdAt));
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
