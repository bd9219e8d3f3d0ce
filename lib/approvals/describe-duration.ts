/** 3600 → "1 hour", 90 → "90 seconds": the largest unit that divides the duration evenly. */
export function describeDuration(seconds: number): string {
  for (const [unit, size] of [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ] as const) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? "" : "s"}`;
    }
  }
  return `${seconds} seconds`;
}
