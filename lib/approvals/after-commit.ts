/**
 * Work to run once the caller's transaction has committed (notifications of requests the policy decided at once).
 * The caller that owns the transaction creates it and calls `run()` after the commit; nothing runs on rollback.
 */
export class AfterCommit {
  private tasks: Array<() => void> = [];
  push(task: () => void) {
    this.tasks.push(task);
  }
  run() {
    for (const t of this.tasks.splice(0)) t();
  }
}
