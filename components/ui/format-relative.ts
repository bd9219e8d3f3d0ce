// A plain module (not "use client") so server code can format times exactly as <RelativeTime> does.

const units: [limitSeconds: number, divisor: number, label: string][] = [
  [60 * 60, 60, "min"],
  [60 * 60 * 24, 60 * 60, "h"],
  [60 * 60 * 24 * 30, 60 * 60 * 24, "d"],
];

/** Compact relative time ("just now", "3 min ago", "in 2 h"); beyond 30 days, a short date. */
export function formatRelative(date: Date, now: number): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return seconds < 0 || abs < 5 ? "just now" : "in <1 min";
  for (const [limit, divisor, label] of units) {
    if (abs < limit) {
      const n = Math.max(1, Math.round(abs / divisor));
      return seconds < 0 ? `${n} ${label} ago` : `in ${n} ${label}`;
    }
  }
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString("en-US", { month: "short", day: "numeric", year: sameYear ? undefined : "numeric" });
}
