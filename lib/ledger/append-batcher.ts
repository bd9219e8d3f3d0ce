import { getDb } from "@/lib/db/client";
import { runLater } from "@/lib/db/background";
import { ledgerEntries } from "@/lib/db/schema/ledger";

type Row = typeof ledgerEntries.$inferInsert;
interface Pending {
  row: Row;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** 13 bound parameters a row: well under Postgres's 65,535 per statement. */
const MAX_ROWS = 2000;

const g = globalThis as { __brynthLedgerBatch?: { queue: Pending[]; flushing: boolean } };

/**
 * Entries written outside a transaction (read-only and waiting tool calls): those arriving while an INSERT is in
 * flight go together in the next one, so concurrent calls share a statement and a commit instead of paying one
 * each. Every caller still waits until its own entry is committed.
 */
export function appendBatched(row: Row): Promise<void> {
  const batch = (g.__brynthLedgerBatch ??= { queue: [], flushing: false });
  return new Promise((resolve, reject) => {
    batch.queue.push({ row, resolve, reject });
    if (batch.flushing) return;
    batch.flushing = true;
    runLater(0, async () => {
      try {
        const db = await getDb();
        while (batch.queue.length) {
          const items = batch.queue.splice(0, MAX_ROWS);
          await db.insert(ledgerEntries).values(items.map((p) => p.row)).then(
            () => items.forEach((p) => p.resolve()),
            (err) => items.forEach((p) => p.reject(err)),
          );
        }
      } catch (err) {
        batch.queue.splice(0).forEach((p) => p.reject(err));
      } finally {
        batch.flushing = false;
      }
    });
  });
}
