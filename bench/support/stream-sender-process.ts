/**
 * bench/mail-stream.ts's sender, in a process of its own so that the 20,000 frames a second the sockets receive
 * never slow it down: RATE mail events a second for SECONDS through emitMailEvent (the real domain path), the events
 * due in each TICK_MS together in one transaction (one or two), up to INFLIGHT transactions at once so a slow commit
 * never holds back the schedule. Prints `ready`, then `half` when half are committed, then `done <events> <seconds>` once every commit
 * returned; the commit times (performance.timeOrigin + performance.now(), comparable across processes) go to
 * COMMITS_FILE as `{event_id: ms}`.
 */
import { writeFileSync } from "node:fs";
import { getDb } from "@/lib/db/client";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";

const RATE = Number(process.env.RATE ?? 100);
const SECONDS = Number(process.env.SECONDS ?? 20);
const INFLIGHT = Number(process.env.INFLIGHT ?? 50);
const TICK_MS = Number(process.env.TICK_MS ?? 10);
const now = () => performance.timeOrigin + performance.now();

async function main() {
  const db = await getDb();
  const summary = { from: "Ada <ada@example.org>", to: ["bench@example.org"], subject: "Quarterly numbers", preview: "Hello", labels: ["received"] };
  const event = () => ({
    projectId: process.env.PROJECT_ID ?? "",
    mailboxId: process.env.MAILBOX_ID ?? null,
    type: "message.received" as const,
    messageId: process.env.MESSAGE_ID ?? null,
    threadId: process.env.THREAD_ID ?? null,
    summary,
  });
  /** `n` events in one transaction, each through emitMailEvent: their ids. */
  const emit = (n = 1) =>
    db.transaction(async (tx) => {
      const ids: string[] = [];
      for (let k = 0; k < n; k++) ids.push(await emitMailEvent(tx, event()));
      return ids;
    });
  // Warm the pool and the prepared statements, outside the measured events (this event is not counted).
  await Promise.all(Array.from({ length: 10 }, () => emit(1)));
  console.log("ready");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));

  const commits: Record<string, number> = {};
  const total = RATE * SECONDS;
  const inflight = new Set<Promise<void>>();
  let committed = 0;
  let queued = 0;
  const t0 = performance.now();
  // Every TICK_MS, the events that became due go out together in one transaction (one or two at 100/s): a
  // transaction per event costs two round trips and a WAL flush each, which this shared machine could not keep up
  // with at 100/s while the instances and sockets took their share.
  while (queued < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) * RATE) / 1000) + 1);
    const n = due - queued;
    if (n > 0 && inflight.size < INFLIGHT) {
      queued += n;
      const p: Promise<void> = emit(n).then((ids) => {
        const at = now();
        for (const id of ids) commits[id] = at;
        const before = committed;
        committed += ids.length;
        if (before < total / 2 && committed >= total / 2) console.log("half");
        inflight.delete(p);
      });
      inflight.add(p);
    }
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  await Promise.all(inflight);
  const seconds = (performance.now() - t0) / 1000;
  writeFileSync(process.env.COMMITS_FILE ?? "/dev/null", JSON.stringify(commits));
  console.log(`done ${committed} ${seconds.toFixed(2)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
