"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

type Point = { hour: string; source: string; count: number };
const colors = ["var(--color-chart-1)", "var(--color-chart-2)", "var(--color-chart-3)", "var(--color-chart-4)", "var(--color-chart-5)"];

/** Events per hour, stacked by source, for the last 24 hours (empty hours included so gaps show). */
export function EventsChart({ points, now }: { points: Point[]; now: string }) {
  const sources = [...new Set(points.map((p) => p.source))].sort();
  const end = new Date(now);
  end.setUTCMinutes(0, 0, 0);
  const hours = Array.from({ length: 24 }, (_, i) => `${new Date(end.getTime() - (23 - i) * 3600_000).toISOString().slice(0, 13)}:00Z`);
  const data = hours.map((hour) => {
    const row: Record<string, string | number> = { hour: hour.slice(11, 16) };
    for (const s of sources) row[s] = points.find((p) => p.hour === hour && p.source === s)?.count ?? 0;
    return row;
  });
  const total = points.reduce((a, p) => a + p.count, 0);
  return (
    <div className="h-40 w-full text-xs" role="img" aria-label={`${total} events in the last 24 hours, by source: ${sources.join(", ") || "none"}`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="var(--color-border)" />
          <XAxis dataKey="hour" tickLine={false} axisLine={false} stroke="var(--color-muted-foreground)" interval={3} />
          <YAxis allowDecimals={false} tickLine={false} axisLine={false} stroke="var(--color-muted-foreground)" />
          <Tooltip
            cursor={{ fill: "var(--color-muted)" }}
            contentStyle={{
              background: "var(--color-popover)",
              border: "1px solid var(--color-border)",
              borderRadius: 8,
              color: "var(--color-popover-foreground)",
            }}
          />
          {sources.length > 1 && <Legend iconSize={8} />}
          {sources.map((s, i) => (
            <Bar key={s} dataKey={s} stackId="sources" fill={colors[i % colors.length]} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
