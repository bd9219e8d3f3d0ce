import { getDb, type Tx } from "@/lib/db/client";

const MAX_BATCH = 50;
/** Transactions in flight at once: while fewer are running, a message starts its own at once (no waiting). */
const MAX_FLUSHES = 2;

interface Work {
  run: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for inbound mail. On a busy listener what bounds messages per second is database latency — round
 * trips and commits (a WAL flush each) — not the few small inserts a message needs. Up to MAX_FLUSHES transactions
 * run at once; messages that arrive while all are busy are stored together in the next one, their statements
 * issued together: on PostgreSQL they share the connection's round trips, PGlite runs them in turn. Every message
 * of a batch settles before the transaction is decided, so none is still in flight when it ends. A batch that
 * fails is retried message by message, each in its own transaction, so a bad message fails only itself (its SMTP
 * client gets 451 and retries). Every caller learns only after its data is committed: 250 never precedes
 * durability.
 */
class CommitBatcher {
  private queue: Work[] = [];
  private flushing = 0;

  submit<T>(run: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (this.flushing < MAX_FLUSHES) void this.flush();
    });
  }

  private async flush() {
    this.flushing++;
    try {
      const db = await getDb();
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        let results: unknown[] | null = null;
        if (batch.length > 1) {
          results = await db
            .transaction(async (tx) => {
              // Settle all before deciding, so no statement is still in flight when the transaction ends.
              const settled = await Promise.allSettled(batch.map((w) => w.run(tx)));
              const failed = settled.find((r) => r.status === "rejected");
              if (failed) throw failed.reason;
              return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
            })
            .catch(() => null);
        }
        if (results) {
          batch.forEach((w, i) => w.resolve(results![i]));
          continue;
        }
        for (const w of batch) {
          await db.transaction((tx) => w.run(tx)).then(w.resolve, w.reject);
        }
      }
    } catch (err) {
      for (const w of this.queue.splice(0)) w.reject(err);
    } finally {
      this.flushing--;
    }
  }
}

const g = globalThis as { __brynthInboundBatcher?: CommitBatcher };

/** Runs `run` in a transaction shared with other inbound messages arriving at the same time; resolves after commit. */
export function commitInbound<T>(run: (tx: Tx) => Promise<T>): Promise<T> {
  g.__brynthInboundBatcher ??= new CommitBatcher();
  return g.__brynthInboundBatcher.submit(run);
}
