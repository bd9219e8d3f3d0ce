"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { niceTicks } from "@/lib/charts/nice-ticks";
import type { PrincipalActivity } from "@/lib/ledger/ledger-stats";

/**
 * One bar per key (or the owner, or Brynth itself), never per agent label: the labels a key sent are listed in its
 * tooltip. Horizontal bars, as key names are long and get the vertical axis.
 */
export function AgentChart({ data }: { data: PrincipalActivity[] }) {
  const height = Math.max(120, data.length * 32 + 40);
  const labels = new Map(data.map((d) => [d.id, d.label]));
  const ticks = niceTicks(Math.max(0, ...data.map((d) => d.entries)));
  return (
    <div style={{ height }} className="w-full text-xs" role="img" aria-label={describe(data)}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="var(--color-border)" />
          <XAxis
            type="number"
            ticks={ticks}
            domain={[0, ticks[ticks.length - 1]]}
            allowDecimals={false}
            tickLine={false}
            axisLine={false}
            stroke="var(--color-muted-foreground)"
          />
          <YAxis
            type="category"
            dataKey="id"
            width={120}
            tickLine={false}
            axisLine={false}
            stroke="var(--color-muted-foreground)"
            tickFormatter={(id: string) => {
              const v = labels.get(id) ?? id;
              return v.length > 18 ? `${v.slice(0, 17)}…` : v;
            }}
          />
          <Tooltip
            cursor={{ fill: "var(--color-muted)" }}
            labelFormatter={(id) => {
              const d = data.find((x) => x.id === id);
              return d ? `${d.label}${d.agents.length ? ` · ${d.agents.join(", ")}` : ""}` : String(id);
            }}
            contentStyle={{
              background: "var(--color-popover)",
              border: "1px solid var(--color-border)",
              borderRadius: 8,
              color: "var(--color-popover-foreground)",
            }}
          />
          <Bar dataKey="entries" name="Entries" fill="var(--color-chart-2)" radius={[0, 4, 4, 0]} barSize={18} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

const describe = (data: PrincipalActivity[]) =>
  `Ledger entries per key: ${data.map((d) => `${d.label}${d.agents.length ? ` (${d.agents.join(", ")})` : ""} ${d.entries}`).join("; ")}`;
