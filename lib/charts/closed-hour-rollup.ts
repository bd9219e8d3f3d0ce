import type { Executor } from "@/lib/db/client";

const HOUR = 3_600_000;

/**
 * An hour counts as history once it ended this long ago. Rows are stamped when they are written (an event's
 * `received_at` at intake, a ledger entry's `ts` when the call is recorded) and commit, and are sealed, within
 * seconds after; nothing deletes them but their project's deletion. So an hour that ended ten minutes ago no longer
 * changes, and its counts can be kept.
 */
export const CLOSED_AFTER_MS = 10 * 60_000;

/** A row of a reader's answer: counts of one hour (its start, in ms since the epoch) under some grouping. */
export type HourRow = { hour: number };

/**
 * Reads a project's rows in [from, to) (to open when null), grouped by hour and whatever else the caller counts
 * by. Each hour's rows must say everything about that hour in the range asked.
 */
export type HourReader<R extends HourRow> = (db: Executor, projectId: string, from: Date, to: Date | null) => Promise<R[]>;

interface State {
  /** Per project: hour start → that hour's rows, final. An hour missing here has not been read since it closed. */
  projects: Map<string, Map<number, HourRow[]>>;
}

const g = globalThis as { __brynthHourRollups?: Map<string, State> };

/** Projects kept per rollup before the oldest is dropped (it is read again at its next load). */
const MAX_PROJECTS = 500;

/**
 * Hourly counts over a window that ends now (the dashboard's "last 24 h" and "last 7 days"), read from the
 * database for the hours that can still change and kept per process for the hours that cannot (`CLOSED_AFTER_MS`).
 * A page load then reads at most the current hour and the ten minutes before it, plus the part of the window's first
 * hour inside the window, instead of every row of the window: with 100,000 events over 7 days the events chart read
 * 100,000 rows per load, and the Overview's per-key chart 78,000 ledger entries.
 *
 * Exact as long as rows are never written into, or removed from, an hour that closed: true for events and ledger
 * entries (stamped at write, deleted only with their project). Each process reads an hour at most once after it
 * closed; instances do not share what they keep, and a restart reads the window once more.
 */
export function closedHourRollup<R extends HourRow>(name: string, opts: { read: HourReader<R>; keepHours: number }) {
  const state = (): State => {
    const all = (g.__brynthHourRollups ??= new Map());
    let s = all.get(name);
    if (!s) {
      s = { projects: new Map() };
      all.set(name, s);
    }
    return s;
  };

  return {
    /** Rows for [since, now] (and any stamped later), each hour's rows as the reader groups them. */
    async rows(db: Executor, opts2: { projectId: string; since: Date; now: Date }): Promise<R[]> {
      const since = opts2.since.getTime();
      const firstFull = Math.ceil(since / HOUR) * HOUR;
      const closedEnd = Math.floor((opts2.now.getTime() - CLOSED_AFTER_MS) / HOUR) * HOUR;
      // Nothing closed inside the window, or a window longer than what is kept (all time): read it all.
      if (firstFull >= closedEnd || closedEnd - firstFull > opts.keepHours * HOUR) return opts.read(db, opts2.projectId, opts2.since, null);

      const s = state();
      let hours = s.projects.get(opts2.projectId);
      if (!hours) {
        if (s.projects.size >= MAX_PROJECTS) s.projects.delete(s.projects.keys().next().value as string);
        hours = new Map();
        s.projects.set(opts2.projectId, hours);
      }
      let missingFrom: number | undefined;
      let missingTo = 0;
      for (let h = firstFull; h < closedEnd; h += HOUR) {
        if (hours.has(h)) continue;
        missingFrom ??= h;
        missingTo = h + HOUR;
      }
      const [head, fill, tail] = await Promise.all([
        since < firstFull ? opts.read(db, opts2.projectId, opts2.since, new Date(firstFull)) : Promise.resolve([]),
        missingFrom !== undefined ? opts.read(db, opts2.projectId, new Date(missingFrom), new Date(missingTo)) : Promise.resolve(null),
        opts.read(db, opts2.projectId, new Date(closedEnd), null),
      ]);
      if (fill && missingFrom !== undefined) {
        // Every hour of the range is recorded, the empty ones too: "read, nothing there" is final as well.
        const read = new Map<number, HourRow[]>();
        for (let h = missingFrom; h < missingTo; h += HOUR) read.set(h, []);
        for (const r of fill) read.get(r.hour)?.push(r);
        for (const [h, rows] of read) hours.set(h, rows);
      }
      // Hours that fell out of every window a caller asks for.
      const oldest = closedEnd - opts.keepHours * HOUR;
      for (const h of hours.keys()) if (h < oldest) hours.delete(h);

      const kept: R[] = [];
      for (let h = firstFull; h < closedEnd; h += HOUR) for (const r of hours.get(h) ?? []) kept.push(r as R);
      return [...head, ...kept, ...tail];
    },
  };
}

/**
 * Forgets every hour kept by every rollup in this process, as a restart would: for a test or a benchmark that writes
 * history backwards in time, or measures the full read of a window against the kept one.
 */
export function forgetClosedHours(): void {
  g.__brynthHourRollups?.clear();
}
