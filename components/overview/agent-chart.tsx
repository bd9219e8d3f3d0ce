"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

type Row = { agent: string; entries: number };

/** Horizontal bars: agent labels are long (names, emails), so they get the vertical axis. */
export function AgentChart({ data }: { data: Row[] }) {
  const height = Math.max(120, data.length * 32 + 40);
  return (
    <div style={{ height }} className="w-full text-xs" role="img" aria-label={describe(data)}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="var(--color-border)" />
          <XAxis type="number" allowDecimals={false} tickLine={false} axisLine={false} stroke="var(--color-muted-foreground)" />
          <YAxis
            type="category"
            dataKey="agent"
            width={140}
            tickLine={false}
            axisLine={false}
            stroke="var(--color-muted-foreground)"
            tickFormatter={(v: string) => (v.length > 20 ? `${v.slice(0, 19)}…` : v)}
          />
          <Tooltip
            cursor={{ fill: "var(--color-muted)" }}
            contentStyle={{
              background: "var(--color-popover)",
              border: "1px solid var(--color-border)",
              borderRadius: 8,
              color: "var(--color-popover-foreground)",
            }}
          />
          <Bar dataKey="entries" name="Entries" fill="var(--color-chart-2)" radius={[0, 4, 4, 0]} barSize={18} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

const describe = (data: Row[]) => `Ledger entries per agent: ${data.map((d) => `${d.agent} ${d.entries}`).join(", ")}`;
