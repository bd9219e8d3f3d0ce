import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailWebhookAttempts, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { query } from "@/lib/db/statement";

/**
 * The Webhooks screen's own reads, which no tool has: every live webhook of the project whoever created it (agents
 * see only their key's), and each one's newest attempt. Every statement filters by the owner's project.
 */

/** At most this many on the screen; a project with more is a misuse the page says out loud. */
export const SCREEN_WEBHOOKS = 200;

export async function projectWebhooks(db: Executor, projectId: string) {
  return db
    .select()
    .from(mailWebhooks)
    .where(and(eq(mailWebhooks.projectId, projectId), isNull(mailWebhooks.deletedAt)))
    .orderBy(asc(mailWebhooks.createdAt), asc(mailWebhooks.id))
    .limit(SCREEN_WEBHOOKS + 1);
}

/** Each webhook's newest attempt: one backward step on the (webhook_id, at) index per webhook. */
export async function lastAttempts(db: Executor, projectId: string, webhookIds: string[]) {
  if (webhookIds.length === 0) return new Map<string, { ok: boolean; statusCode: number | null; at: Date }>();
  const a = mailWebhookAttempts;
  const rows = await query<{ webhookId: string; ok: boolean; statusCode: number | null; at: Date }>(
    db,
    sql`select w.id as webhook_id, l.ok, l.status_code, l.at
        from jsonb_array_elements_text(${JSON.stringify(webhookIds)}::jsonb) as w(id)
        cross join lateral (
          select ${a.ok} as ok, ${a.statusCode} as status_code, ${a.at} as at from ${a}
          where ${a.projectId} = ${projectId} and ${a.webhookId} = w.id order by ${a.at} desc limit 1
        ) l`,
  );
  return new Map(rows.map((r) => [r.webhookId, { ok: r.ok, statusCode: r.statusCode, at: new Date(r.at) }]));
}
