/**
 * Even ticks for a count axis: 0 up to at least `max` in steps of 1, 2 or 5 × 10^n, about `target` intervals.
 * Recharts' own choice, given only allowDecimals=false, can land on uneven steps (0, 3, 6, 8); these never do.
 */
export function niceTicks(max: number, target = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / target;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude);
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
}
