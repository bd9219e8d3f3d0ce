/**
 * What the load wrote to the KV store. Each key has one writer that writes sequence numbers in order, so the value
 * it must read back is exact: at least the last write answered as saved, at most the last one attempted (a write
 * whose answer was lost may or may not have landed).
 */
export function kvBook() {
  const keys = new Map<string, { attempted: number; saved: number }>();
  const tally = { writes_saved: 0, writes_unanswered: 0, reads: 0, stale_reads: 0 };
  const stale: string[] = [];
  const entry = (key: string) => {
    let e = keys.get(key);
    if (!e) keys.set(key, (e = { attempted: 0, saved: 0 }));
    return e;
  };
  return {
    keys,
    tally,
    stale,
    attempt: (key: string, seq: number) => {
      entry(key).attempted = seq;
    },
    saved: (key: string, seq: number) => {
      entry(key).saved = seq;
      tally.writes_saved++;
    },
    unanswered: () => {
      tally.writes_unanswered++;
    },
    /** A read that began after `saved` was answered must see it or a newer write; anything older is stale. */
    read: (key: string, seq: number | null, saved: number) => {
      tally.reads++;
      if ((seq ?? 0) < saved) {
        tally.stale_reads++;
        stale.push(`${key}: read ${seq} after ${saved} was saved`);
      }
    },
  };
}
export type KvBook = ReturnType<typeof kvBook>;
