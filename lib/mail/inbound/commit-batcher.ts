import { getDb, type Tx } from "@/lib/db/client";
import { env } from "@/lib/env";
import { setStatementTimeout } from "@/lib/db/statement-timeout";
import { isCommitOutcomeUnknown } from "@/lib/db/transaction";

const MAX_BATCH = 50;
/** Transactions in flight at once: while fewer are running, a message starts its own at once (no waiting). */
const MAX_FLUSHES = 2;

interface Work {
  run: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** Aborted when the caller stopped waiting (its SMTP client was answered 451): the work must not commit. */
  signal?: AbortSignal;
}

/**
 * Each statement of an inbound transaction may run this long. A commit stuck behind a lock would otherwise hold its
 * batch, a pooled connection and the messages' bytes for good; with the limit the statement fails, the transaction
 * rolls back and the senders retry. Set in the transaction (SET LOCAL), so nothing else is held to it; it costs one
 * round trip a transaction, not a message. PGlite accepts the setting but times nothing out: it runs one statement
 * at a time, and the listener's own deadline covers it.
 */
const statementTimeout = (tx: Tx) => setStatementTimeout(tx, env().SMTP_STORE_TIMEOUT_MS);

/** Runs one work in `tx`, refusing to start, or to let its transaction commit, once its caller stopped waiting. */
async function runWork(w: Work, tx: Tx) {
  w.signal?.throwIfAborted();
  const out = await w.run(tx);
  w.signal?.throwIfAborted();
  return out;
}

/**
 * Group commit for inbound mail. On a busy listener what bounds messages per second is database latency — round
 * trips and commits (a WAL flush each) — not the few small inserts a message needs. Up to MAX_FLUSHES transactions
 * run at once; messages that arrive while all are busy are stored together in the next one, their statements
 * issued together: on PostgreSQL they share the connection's round trips, PGlite runs them in turn. Every message
 * of a batch settles before the transaction is decided, so none is still in flight when it ends. A batch that
 * fails is retried message by message, each in its own transaction, so a bad message fails only itself (its SMTP
 * client gets 451 and retries); one whose COMMIT went unanswered is not (it may be stored): all its senders retry. Every caller learns only after its data is committed: 250 never precedes
 * durability.
 */
class CommitBatcher {
  private queue: Work[] = [];
  private flushing = 0;

  submit<T>(run: (tx: Tx) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const work: Work = { run, resolve: resolve as (v: unknown) => void, reject, signal };
      // A work still queued when its caller gives up leaves the queue at once, with the bytes it holds.
      signal?.addEventListener(
        "abort",
        () => {
          const i = this.queue.indexOf(work);
          if (i === -1) return;
          this.queue.splice(i, 1);
          reject(signal.reason);
        },
        { once: true },
      );
      this.queue.push(work);
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
        let unknown: unknown = null;
        if (batch.length > 1) {
          results = await db
            .transaction(async (tx) => {
              await statementTimeout(tx);
              // Settle all before deciding, so no statement is still in flight when the transaction ends.
              const settled = await Promise.allSettled(batch.map((w) => runWork(w, tx)));
              const failed = settled.find((r) => r.status === "rejected");
              if (failed) throw failed.reason;
              // A work whose caller gave up while the others ran must not commit; the rest are retried one by one.
              if (batch.some((w) => w.signal?.aborted)) throw new Error("a caller stopped waiting");
              return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
            })
            .catch((err: unknown) => {
              if (isCommitOutcomeUnknown(err)) unknown = err;
              return null;
            });
        }
        if (results) {
          batch.forEach((w, i) => w.resolve(results![i]));
          continue;
        }
        // Its COMMIT went unanswered: the batch may be stored. Retried here, on duplicate checks read before it,
        // every message was stored twice (found by helper-113); the senders retry instead, and a redelivery of a
        // stored Message-ID is skipped.
        if (unknown) {
          for (const w of batch) w.reject(unknown);
          continue;
        }
        for (const w of batch) {
          if (w.signal?.aborted) {
            w.reject(w.signal.reason);
            continue;
          }
          await db
            .transaction(async (tx) => {
              await statementTimeout(tx);
              return runWork(w, tx);
            })
            .then(w.resolve, w.reject);
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

/**
 * Runs `run` in a transaction shared with other inbound messages arriving at the same time; resolves after commit.
 * Once `signal` aborts, the work is dropped if it has not started, and its transaction rolled back if it has not yet
 * committed (a commit already under way may still land: a redelivery of its Message-ID is then skipped).
 */
export function commitInbound<T>(run: (tx: Tx) => Promise<T>, opts: { signal?: AbortSignal } = {}): Promise<T> {
  g.__brynthInboundBatcher ??= new CommitBatcher();
  return g.__brynthInboundBatcher.submit(run, opts.signal);
}
