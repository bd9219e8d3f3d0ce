import type { Db, Executor, Tx } from "@/lib/db/client";

/** A statement's rows as the driver gives them, with the type of each column (Postgres type OIDs). */
export interface DriverResult {
  rows: Record<string, unknown>[];
  columns: readonly { name: string; type: number }[];
}

/** Runs SQL text on one database or transaction through the driver's own API (postgres.js `unsafe`, PGlite `query`). */
export type DriverQuery = (text: string, params: unknown[]) => Promise<DriverResult>;

/** What a transaction collects while it runs, settled by its driver's runner around the COMMIT. */
export interface TransactionState {
  /** Run once the transaction has committed; dropped when it rolls back (or with the savepoint they belong to). */
  afterCommit: (() => void | Promise<void>)[];
  /** Run once it is certain the transaction (or the savepoint they belong to) rolled back; dropped when it commits. */
  afterRollback: (() => void | Promise<void>)[];
  /** Statements sent without waiting, to go out with the COMMIT: the transaction fails if any of them failed. */
  withCommit: Promise<Settled>[];
}

export type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Scope {
  query: DriverQuery;
  /** Present on a transaction's executor. */
  tx?: TransactionState;
}

/**
 * Every executor lib/db hands out — the database and each transaction — is registered here with its driver, so that
 * the hot-statement entry point (statement.ts) and the after-commit hook find them without reaching into drizzle.
 */
const g = globalThis as { __brynthScopes?: WeakMap<object, Scope> };
const scopes = () => (g.__brynthScopes ??= new WeakMap());

export function registerExecutor(db: Executor, query: DriverQuery, tx?: TransactionState): void {
  scopes().set(db, { query, tx });
}

function scopeOf(db: Executor): Scope {
  const scope = scopes().get(db);
  if (!scope) throw new Error("This database handle was not opened through lib/db/client.ts.");
  return scope;
}

export const driverQuery = (db: Executor): DriverQuery => scopeOf(db).query;

export const isTransaction = (db: Executor): db is Tx => scopeOf(db).tx !== undefined;

/**
 * The one way to run work after a commit: NOTIFYs, seal requests, cache invalidations, emitted events. Inside a
 * transaction `task` runs once it has committed, never if it rolls back; given the database itself, at once.
 * A task's failure is logged: the work it follows has committed and its caller has its answer.
 */
export function afterCommit(db: Executor, task: () => void | Promise<void>): void {
  const tx = scopeOf(db).tx;
  if (tx) tx.afterCommit.push(task);
  else runTask(task);
}

/**
 * Undoing what no ROLLBACK undoes, for work done outside the database on behalf of a transaction (bytes written to
 * the blob store for a row it inserts): `task` runs once the transaction, or the savepoint it was registered in,
 * certainly rolled back, never if it committed or if its COMMIT's outcome is unknown (a lost connection: the rows may
 * have committed). Outside a transaction there is nothing to roll back, and it never runs.
 */
export function afterRollback(db: Executor, task: () => void | Promise<void>): void {
  scopeOf(db).tx?.afterRollback.push(task);
}

/** Runs what a committed transaction left for after its commit. */
export function runAfterCommit(state: TransactionState): void {
  state.afterRollback.length = 0;
  for (const task of state.afterCommit.splice(0)) runTask(task);
}

/** Runs what a transaction that certainly rolled back left for that case. */
export function runAfterRollback(state: TransactionState): void {
  state.afterCommit.length = 0;
  for (const task of state.afterRollback.splice(0)) runTask(task);
}

const OUTCOME_UNKNOWN = Symbol.for("brynth.commitOutcomeUnknown");

/**
 * Marks the error of a COMMIT that was sent and never answered (a lost connection): the transaction may have
 * committed. The error itself is kept (it still renders as the database being unavailable); whoever would retry the
 * transaction's work in-process must not (commit-batcher.ts), since it may already be stored.
 */
export function commitOutcomeUnknown(err: unknown): unknown {
  if (err !== null && typeof err === "object") (err as Record<symbol, unknown>)[OUTCOME_UNKNOWN] = true;
  return err;
}

export const isCommitOutcomeUnknown = (err: unknown): boolean =>
  err !== null && typeof err === "object" && (err as Record<symbol, unknown>)[OUTCOME_UNKNOWN] === true;

/** A new transaction's empty state. */
export const newTransactionState = (): TransactionState => ({ afterCommit: [], afterRollback: [], withCommit: [] });

function runTask(task: () => void | Promise<void>): void {
  try {
    const out = task();
    if (out instanceof Promise) out.catch((err) => console.error("[brynth] after-commit/rollback task failed", err));
  } catch (err) {
    console.error("[brynth] after-commit/rollback task failed", err);
  }
}

/** A promise's outcome as a value: its rejection is held for whoever reads it, never left unhandled or dropped. */
export const settle = (p: PromiseLike<unknown>): Promise<Settled> =>
  Promise.resolve(p).then(
    (value: unknown) => ({ ok: true, value }) as const,
    (error: unknown) => ({ ok: false, error }) as const,
  );

/** Hands a statement to the transaction's COMMIT (statement.ts `withCommit`); outside one, waits for it. */
export async function sendWithCommit(db: Executor, sent: Promise<unknown>): Promise<void> {
  const tx = scopeOf(db).tx;
  if (!tx) {
    await sent;
    return;
  }
  tx.withCommit.push(settle(sent));
}

/** The first failure among statements sent with the commit, if any. */
export async function withCommitFailure(state: TransactionState): Promise<Settled> {
  for (const s of await Promise.all(state.withCommit.splice(0))) if (!s.ok) return s;
  return { ok: true, value: undefined };
}

/**
 * Nested `tx.transaction(fn)` as a savepoint on the same connection: the callback gets the same transaction, and
 * if the savepoint rolls back, what it registered for after the commit is dropped and what for a rollback runs.
 */
export function savepoints(tx: Db, state: TransactionState, exec: (text: string) => Promise<unknown>): Db["transaction"] {
  let n = 0;
  return async <T>(fn: (inner: Tx) => Promise<T>): Promise<T> => {
    const name = `sp${n++}`;
    const mark = state.afterCommit.length;
    const undoMark = state.afterRollback.length;
    await exec(`savepoint ${name}`);
    try {
      const out = await fn(tx as Tx);
      await exec(`release savepoint ${name}`);
      return out;
    } catch (err) {
      // Should this fail, the transaction fails with it, and its own rollback runs what is registered here.
      await exec(`rollback to savepoint ${name}`);
      state.afterCommit.length = mark;
      for (const task of state.afterRollback.splice(undoMark)) runTask(task);
      throw err;
    }
  };
}
