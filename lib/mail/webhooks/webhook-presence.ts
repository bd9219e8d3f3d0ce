import { getHandle, type Executor } from "@/lib/db/client";
import { statement } from "@/lib/db/statement";

const g = globalThis as { __brynthWebhookPresence?: Map<string, boolean> };

const anyLiveWebhook = statement<{ found: boolean }, [projectId: string]>(
  "select exists (select 1 from mail_webhooks where project_id = $1 and enabled and deleted_at is null) as found",
);

/**
 * Whether an event of this project may have webhooks to fan out to: the one place the fan-out is ever skipped
 * (emitMailEvent). The fused event-and-fan-out statement costs about 2% on PostgreSQL, where it is always run
 * (bench/mail-event-fanout.ts), but PGlite plans every statement afresh and its three inserts cost ten times the
 * plain one — on every inbound message, for the many projects that have no webhooks.
 *
 * So on the embedded database only, a project known to have no live webhook is remembered. That is exact there: one
 * process owns the database (the data directory is locked) and runs one transaction at a time, and every domain
 * function that can give a project a live webhook calls `webhooksChanged` inside its own transaction, before it
 * commits. Rows written to mail_webhooks by any other path are not seen until the process restarts.
 */
export async function mayHaveWebhooks(db: Executor, projectId: string): Promise<boolean> {
  if ((await getHandle()).kind !== "pglite") return true;
  const known = (g.__brynthWebhookPresence ??= new Map());
  const cached = known.get(projectId);
  if (cached !== undefined) return cached;
  const [row] = await anyLiveWebhook(db, projectId);
  const found = row?.found === true;
  if (known.size > 10_000) known.clear();
  known.set(projectId, found);
  return found;
}

/** A webhook of this project was created, enabled or changed: the next event asks the database again. */
export function webhooksChanged(projectId: string): void {
  g.__brynthWebhookPresence?.delete(projectId);
}
