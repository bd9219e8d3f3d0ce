"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { niceTicks } from "@/lib/charts/nice-ticks";
import { sourceColors } from "@/lib/charts/source-colors";
import { bucketOf, fitTimeWindow } from "@/lib/charts/time-window";

type Point = { hour: string; source: string; count: number };

/**
 * Events per time bucket, stacked by source, under the screen's filters. The window fits the data (6 hours to 7
 * days), buckets and ticks sit on round UTC hours, and each source keeps its colour: colours come from every
 * source of the project, not only those in view.
 */
export function EventsChart({ points, now, allSources }: { points: Point[]; now: string; allSources: string[] }) {
  const win = fitTimeWindow(
    points.map((p) => p.hour),
    new Date(now),
  );
  const colors = sourceColors([...allSources, ...points.map((p) => p.source)]);
  const sources = [...new Set(points.map((p) => p.source))].sort();
  const rows = new Map(win.buckets.map((b) => [b.start, { start: b.start, label: b.label } as Record<string, string | number>]));
  for (const p of points) {
    const row = rows.get(bucketOf(p.hour, win.bucketHours));
    if (row) row[p.source] = Number(row[p.source] ?? 0) + p.count;
  }
  const data = [...rows.values()].map((row) => Object.fromEntries([...Object.entries(row), ...sources.filter((s) => !(s in row)).map((s) => [s, 0])]));
  const max = Math.max(0, ...data.map((row) => sources.reduce((a, s) => a + Number(row[s]), 0)));
  const yTicks = niceTicks(max);
  const labels = new Map(win.buckets.map((b) => [b.start, b.label]));
  const tickSet = new Set(win.ticks);
  const total = points.reduce((a, p) => a + p.count, 0);
  return (
    <div className="grid gap-2">
      <div className="text-xs text-muted-foreground" data-testid="events-chart-title">
        Events per {win.bucketHours === 1 ? "hour" : `${win.bucketHours} hours`} by source, {win.title} (UTC)
      </div>
      <div className="h-40 w-full text-xs" role="img" aria-label={`${total} events in the ${win.title}, by source: ${sources.join(", ") || "none"}`}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid vertical={false} stroke="var(--color-border)" />
            <XAxis
              dataKey="start"
              // Every bucket gets a tick and only the round hours a label: a category axis places ticks by index.
              interval={0}
              tickFormatter={(v: string) => (tickSet.has(v) ? (labels.get(v) ?? "") : "")}
              tickLine={false}
              axisLine={false}
              stroke="var(--color-muted-foreground)"
            />
            <YAxis
              ticks={yTicks}
              domain={[0, yTicks[yTicks.length - 1]]}
              allowDecimals={false}
              tickLine={false}
              axisLine={false}
              stroke="var(--color-muted-foreground)"
            />
            <Tooltip
              cursor={{ fill: "var(--color-muted)" }}
              labelFormatter={(v) => tooltipTime(String(v))}
              contentStyle={{
                background: "var(--color-popover)",
                border: "1px solid var(--color-border)",
                borderRadius: 8,
                color: "var(--color-popover-foreground)",
              }}
            />
            {sources.map((s) => (
              <Bar key={s} dataKey={s} stackId="sources" fill={colors.get(s)} data-source={s} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* Our own legend, in HTML: readable by screen readers and the same swatch colour as the bars. */}
      {sources.length > 1 && (
        <ul aria-label="Sources" className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
          {sources.map((s) => (
            <li key={s} className="flex items-center gap-1.5">
              <span aria-hidden className="size-2 rounded-sm" style={{ background: colors.get(s) }} data-color={colors.get(s)} />
              {s}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const tooltipTime = (iso: string) =>
  `${new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" })} UTC`;
