import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { oauthGrants } from "@/lib/db/schema/oauth";
import { isGrantId } from "@/lib/oauth/token-format";

export interface WebhookCreator {
  keyId: string;
  name: string;
  prefix: string;
  revoked: boolean;
}

/**
 * The API keys that created these webhooks, for the owner's views (the webhook row keeps only `key_id`). A revoked
 * key still names its webhooks: they keep delivering until the owner deletes them.
 */
export async function webhookCreators(db: Executor, projectId: string, keyIds: (string | null)[]): Promise<Map<string, WebhookCreator>> {
  const ids = [...new Set(keyIds.filter((k): k is string => !!k))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ keyId: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.projectId, projectId), inArray(apiKeys.id, ids)));
  return new Map(rows.map((r) => [r.keyId, { keyId: r.keyId, name: r.name, prefix: r.prefix, revoked: r.revokedAt !== null }]));
}

/**
 * The mailbox a webhook's creator is restricted to (a key's, or an OAuth grant's: `ogr_…`), or null: its webhooks
 * watch that mailbox alone whoever edits them (design §2.6), lest the owner widen a key's view by an edit.
 */
export async function creatorMailbox(db: Executor, projectId: string, keyId: string | null): Promise<string | null> {
  if (!keyId) return null;
  const t = isGrantId(keyId) ? oauthGrants : apiKeys;
  const [row] = await db
    .select({ mailboxId: t.mailboxId })
    .from(t)
    .where(and(eq(t.projectId, projectId), eq(t.id, keyId)));
  return row?.mailboxId ?? null;
}
