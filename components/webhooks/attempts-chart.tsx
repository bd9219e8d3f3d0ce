"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

type Point = { hour: string; succeeded: number; failed: number };

/** Delivery attempts per hour for the last 24 hours, successes and failures stacked (empty hours included so gaps show). */
export function AttemptsChart({ points, now }: { points: Point[]; now: string }) {
  const end = new Date(now);
  end.setUTCMinutes(0, 0, 0);
  const hours = Array.from({ length: 24 }, (_, i) => `${new Date(end.getTime() - (23 - i) * 3600_000).toISOString().slice(0, 13)}:00Z`);
  const data = hours.map((hour) => {
    const p = points.find((x) => x.hour === hour);
    return { hour: hour.slice(11, 16), Succeeded: p?.succeeded ?? 0, Failed: p?.failed ?? 0 };
  });
  const ok = points.reduce((n, p) => n + p.succeeded, 0);
  const failed = points.reduce((n, p) => n + p.failed, 0);
  return (
    <div className="h-40 w-full text-xs" role="img" aria-label={`${ok} successful and ${failed} failed delivery attempts in the last 24 hours`}>
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
          <Legend iconSize={8} />
          <Bar dataKey="Succeeded" stackId="outcome" fill="var(--color-chart-2)" />
          <Bar dataKey="Failed" stackId="outcome" fill="var(--color-destructive)" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
