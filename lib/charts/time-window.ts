const HOUR = 3600_000;

/** The windows a chart may show, each with a bucket size that keeps 6 to 28 bars and a tick every few buckets. */
const WINDOWS = [
  { hours: 6, bucket: 1, tickEvery: 1 },
  { hours: 12, bucket: 1, tickEvery: 2 },
  { hours: 24, bucket: 1, tickEvery: 3 },
  { hours: 72, bucket: 3, tickEvery: 12 },
  { hours: 168, bucket: 6, tickEvery: 24 },
] as const;

/** The longest window: what the server reads. */
export const MAX_WINDOW_HOURS = WINDOWS[WINDOWS.length - 1].hours;

export type Bucket = { start: string; label: string };
export type TimeWindow = { hours: number; bucketHours: number; buckets: Bucket[]; ticks: string[]; title: string };

/**
 * The smallest window that holds the oldest point, so a quiet project's three events are not a sliver at the right
 * of an empty day. Buckets and ticks fall on round UTC hours (00:00, 03:00, …; midnights for days), never on
 * "whatever hour the page was loaded", so ticks are evenly spaced and read the same on every reload.
 */
export function fitTimeWindow(pointHours: string[], now: Date): TimeWindow {
  const oldest = pointHours.reduce((min, h) => Math.min(min, Date.parse(h)), now.getTime());
  const span = (now.getTime() - oldest) / HOUR;
  const w = WINDOWS.find((x) => span < x.hours) ?? WINDOWS[WINDOWS.length - 1];
  const size = w.bucket * HOUR;
  const last = Math.floor(now.getTime() / size) * size;
  const count = w.hours / w.bucket;
  const buckets: Bucket[] = [];
  const ticks: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const t = new Date(last - i * size);
    const start = t.toISOString();
    const multiDay = w.hours > 24;
    const midnight = t.getUTCHours() === 0;
    buckets.push({ start, label: multiDay && midnight ? dayLabel(t) : `${String(t.getUTCHours()).padStart(2, "0")}:00` });
    if (t.getUTCHours() % w.tickEvery === 0) ticks.push(start);
  }
  const title = w.hours <= 24 ? `last ${w.hours} hours` : `last ${w.hours / 24} days`;
  return { hours: w.hours, bucketHours: w.bucket, buckets, ticks, title };
}

/** The bucket an hour's count falls in (an ISO hour like 2026-12-02T05:00Z). */
export function bucketOf(hour: string, bucketHours: number): string {
  const size = bucketHours * HOUR;
  return new Date(Math.floor(Date.parse(hour) / size) * size).toISOString();
}

const dayLabel = (t: Date) => t.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
