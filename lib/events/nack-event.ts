import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { EventStatus } from "@/lib/db/schema/events";
import { eventState, holderOf } from "@/lib/events/event-state";
import { notifyEventChange } from "@/lib/events/events-channel";
import { leaseError } from "@/lib/events/lease-errors";
import { nackEventRow } from "@/lib/events/statements";
import { cutUtf8 } from "@/lib/text/cut-utf8";

export const MAX_REASON_BYTES = 1024;

/** Gives a claimed event back: `failed` until its retry delay passes, or `dead` after the last attempt or retry:false. */
export async function nackEvent(
  tx: Executor,
  opts: { actor: Actor; eventId: string; reason: string; retry: boolean; leaseToken?: string },
): Promise<{ id: string; status: Extract<EventStatus, "failed" | "dead">; attempts: number; retryAt: Date | null }> {
  const { actor } = opts;
  const reason = cutUtf8(opts.reason, MAX_REASON_BYTES);
  const holder = holderOf(actor);
  const [row] = await nackEventRow(tx, opts.eventId, actor.projectId, holder, opts.leaseToken ?? null, reason, opts.retry);
  if (!row) throw leaseError(await eventState(tx, actor.projectId, opts.eventId), "nack", holder, opts.leaseToken);
  notifyEventChange(tx, { project: actor.projectId, id: row.id, source: row.source, type: row.type, status: row.status });
  return { id: row.id, status: row.status, attempts: row.attempts, retryAt: row.status === "failed" ? row.availableAt : null };
}
