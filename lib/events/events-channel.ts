import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { listen, notify } from "@/lib/db/notify";
import { runLater } from "@/lib/db/background";
import { eventStatuses } from "@/lib/db/schema/events";

/** One LISTEN/NOTIFY channel for event changes; listeners filter by project. Payloads are arrays of changes. */
export const EVENTS_CHANNEL = "brynth_events";
/** pg_notify refuses payloads of 8000 bytes and more. */
const MAX_PAYLOAD = 7000;

const change = z.object({
  project: z.string(),
  id: z.string(),
  source: z.string(),
  type: z.string(),
  /** The status the change left the event in: `pending` means claimable now, so waiters wake up. */
  status: z.enum(eventStatuses),
});
export type EventChange = z.infer<typeof change>;

/**
 * Inside the caller's transaction: delivered on commit, so a woken listener always finds the row. NOTIFY takes a
 * cluster-wide lock from the commit until its WAL flush, which serialises committing transactions (measured
 * here: 320 commits/s with it against 570–1,350 without), so hot paths use `publishEventChange` instead.
 */
export async function notifyEventChanges(tx: Executor, changes: EventChange[]): Promise<void> {
  for (const payload of payloads(changes)) await notify(tx, EVENTS_CHANNEL, payload);
}

const g = globalThis as { __brynthEventOutbox?: { queue: EventChange[]; scheduled: boolean } };

/**
 * Outside any transaction: changes made in the same moment are coalesced into one NOTIFY. Callers that own the
 * commit publish after it (webhook intake); if the process dies in between, waiters fall back on their timeout and
 * the events themselves are safe.
 */
export function publishEventChange(c: EventChange): void {
  const outbox = (g.__brynthEventOutbox ??= { queue: [], scheduled: false });
  outbox.queue.push(c);
  if (outbox.scheduled) return;
  outbox.scheduled = true;
  runLater(0, () => {
    const batch = outbox.queue.splice(0);
    outbox.scheduled = false;
    return flush(batch).catch((err) => console.error("[brynth] event notification failed", err));
  });
}

/** How long an advisory change waits before it goes out: the caller's transaction commits in far less. */
const ADVISORY_DELAY_MS = 50;

/**
 * For changes made inside a transaction someone else commits (claims and acks inside a tool call), when only
 * watchers care: the dashboard re-reads the page a second later and waiters merely re-check, so a notice that
 * arrives a moment early, or for a change that rolled back, does no harm. Unlike NOTIFY in the transaction, it
 * does not serialise the commits of the consumers' hot path.
 */
export function announceEventChange(c: EventChange): void {
  runLater(ADVISORY_DELAY_MS, async () => publishEventChange(c));
}

async function flush(batch: EventChange[]) {
  const db = await getDb();
  for (const payload of payloads(batch)) await notify(db, EVENTS_CHANNEL, payload);
}

/** JSON arrays of changes, each under the NOTIFY payload limit. */
function payloads(changes: EventChange[]): string[] {
  const out: string[] = [];
  let chunk: string[] = [];
  let size = 2;
  for (const c of changes) {
    const item = JSON.stringify(c);
    if (chunk.length && size + item.length + 1 > MAX_PAYLOAD) {
      out.push(`[${chunk.join(",")}]`);
      chunk = [];
      size = 2;
    }
    chunk.push(item);
    size += item.length + 1;
  }
  if (chunk.length) out.push(`[${chunk.join(",")}]`);
  return out;
}

export function onEventChange(handler: (c: EventChange) => void): Promise<() => void> {
  return listen(EVENTS_CHANNEL, (payload) => {
    let items: unknown;
    try {
      items = JSON.parse(payload);
    } catch {
      return;
    }
    for (const item of Array.isArray(items) ? items : [items]) {
      const parsed = change.safeParse(item);
      if (parsed.success) handler(parsed.data);
    }
  });
}
