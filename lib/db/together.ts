/**
 * Runs independent statements of one transaction at once and waits for every one of them before answering, so none
 * is still in flight when the caller goes on; the first failure is the answer. On PostgreSQL they are pipelined on
 * the transaction's connection (one write and one wait instead of one each: on this kind of machine every round
 * trip costs a socket write and a wake-up); PGlite runs them in turn. Statements that depend on each other (a row
 * and the rows that reference it) go in successive calls, never in the same one.
 */
export async function together(steps: Array<(() => PromiseLike<unknown>) | false | null | undefined>): Promise<void> {
  const settled = await Promise.allSettled(steps.filter((f): f is () => PromiseLike<unknown> => typeof f === "function").map((f) => f()));
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}
