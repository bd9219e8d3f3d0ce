import { z } from "zod";
import { getDb, type Executor } from "@/lib/db/client";
import { listen, notify } from "@/lib/db/notify";
import { runLater } from "@/lib/db/background";
import { requestStatuses } from "@/lib/db/schema/approvals";

/** LISTEN/NOTIFY channel for request changes: waiting agents, the dashboard's live list and channel senders. */
export const REQUESTS_CHANNEL = "brynth_requests";
/** pg_notify refuses payloads of 8000 bytes and more. */
const MAX_PAYLOAD = 7000;

const change = z.object({ project: z.string(), id: z.string(), status: z.enum(requestStatuses) });
export type RequestChange = z.infer<typeof change>;

/**
 * Inside the deciding transaction: delivered on commit, so a woken waiter always reads the decision. Used for
 * decisions people make (rare, and someone may be waiting on them).
 */
export function notifyRequestChange(tx: Executor, c: RequestChange): Promise<void> {
  return notify(tx, REQUESTS_CHANNEL, JSON.stringify([c]));
}

const g = globalThis as { __brynthRequestOutbox?: { queue: RequestChange[]; scheduled: boolean } };

/**
 * After a commit, coalesced into as few NOTIFYs as possible: for requests the policy decided at once, whom nobody
 * waits on. A NOTIFY inside a transaction serialises commits cluster-wide, which this hot path must not pay.
 */
export function publishRequestChange(c: RequestChange): void {
  const outbox = (g.__brynthRequestOutbox ??= { queue: [], scheduled: false });
  outbox.queue.push(c);
  if (outbox.scheduled) return;
  outbox.scheduled = true;
  runLater(0, async () => {
    const batch = outbox.queue.splice(0);
    outbox.scheduled = false;
    try {
      const db = await getDb();
      for (const payload of chunks(batch)) await notify(db, REQUESTS_CHANNEL, payload);
    } catch (err) {
      console.error("[brynth] request notification failed", err);
    }
  });
}

function chunks(changes: RequestChange[]): string[] {
  const out: string[] = [];
  let items: string[] = [];
  let size = 2;
  for (const c of changes) {
    const item = JSON.stringify(c);
    if (items.length && size + item.length + 1 > MAX_PAYLOAD) {
      out.push(`[${items.join(",")}]`);
      items = [];
      size = 2;
    }
    items.push(item);
    size += item.length + 1;
  }
  if (items.length) out.push(`[${items.join(",")}]`);
  return out;
}

export function onRequestChange(handler: (c: RequestChange) => void): Promise<() => void> {
  return listen(REQUESTS_CHANNEL, (payload) => {
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
