import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";
import { CLOSED_AFTER_MS, closedHourRollup, forgetClosedHours } from "@/lib/charts/closed-hour-rollup";
import { eventSourceNames, eventsPerHour } from "@/lib/events/events-per-hour";
import { sourceColors } from "@/lib/charts/source-colors";
import { seedEvents } from "@/lib/testing/events";
import { seedProject } from "@/lib/testing/seed";

const HOUR = 3_600_000;
/** A fixed "now" 25 minutes into an hour, so the hour before it has closed (CLOSED_AFTER_MS) and the window's edges are partial. */
const NOW = new Date(Math.floor(Date.now() / HOUR) * HOUR - 48 * HOUR + 25 * 60_000);

/** Events of `type` and `source` received at each of the given moments (as intake would have stamped them). */
async function eventsAt(projectId: string, source: string, type: string, at: Date[]) {
  const db = await getDb();
  const ids = await seedEvents(
    projectId,
    at.map(() => ({ type, source })),
  );
  for (const [i, id] of ids.entries()) await db.update(events).set({ receivedAt: at[i] }).where(eq(events.id, id));
  return ids;
}

/** The same counts straight from the table, for the window [since, ∞). */
async function direct(db: Executor, projectId: string, since: Date) {
  const rows = await query<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${events} where ${events.projectId} = ${projectId} and ${events.receivedAt} >= ${since.toISOString()}::timestamptz`,
  );
  return rows[0]?.n ?? 0;
}

/** A reader over the events table that notes the ranges it was asked for. */
function recordingRollup(name: string) {
  const asked: { from: number; to: number | null }[] = [];
  const rollup = closedHourRollup(name, {
    keepHours: 24,
    read: async (db, projectId, from, to) => {
      asked.push({ from: from.getTime(), to: to?.getTime() ?? null });
      return query<{ hour: number; n: number }>(
        db,
        sql`select (floor(extract(epoch from ${events.receivedAt}) / 3600) * ${HOUR})::bigint as hour, count(*)::int as n from ${events}
            where ${events.projectId} = ${projectId} and ${events.receivedAt} >= ${from.toISOString()}::timestamptz
              ${to ? sql`and ${events.receivedAt} < ${to.toISOString()}::timestamptz` : sql``}
            group by 1`,
      );
    },
  });
  return { rollup, asked };
}

const sum = (rows: { n: number }[]) => rows.reduce((n, r) => n + r.n, 0);

describe("closedHourRollup", () => {
  it("answers as the table does, partial first hour and open hours included, and reads closed hours only once", async () => {
    const db = await getDb();
    const { actor } = await seedProject({ name: "Rollup" });
    const t = NOW.getTime();
    // In the window's first, partial hour (one before the window starts), closed hours, the last closed one, the
    // ten minutes after it that may still change, and the current hour.
    const since = new Date(t - 20 * HOUR);
    await eventsAt(actor.projectId, "shop", "order.created", [
      new Date(since.getTime() - 60_000),
      new Date(since.getTime() + 60_000),
      new Date(t - 10 * HOUR),
      new Date(t - 10 * HOUR + 1),
      new Date(t - 3 * HOUR),
      new Date(t - 30 * 60_000),
      new Date(t - 20 * 60_000),
      new Date(t - 60_000),
    ]);
    const { rollup, asked } = recordingRollup("test-rollup-a");

    const first = await rollup.rows(db, { projectId: actor.projectId, since, now: NOW });
    expect(sum(first)).toBe(await direct(db, actor.projectId, since));
    expect(sum(first)).toBe(7);

    asked.length = 0;
    // A new event in the current hour shows at once; the closed hours are not read again.
    await eventsAt(actor.projectId, "shop", "order.created", [new Date(t - 1000)]);
    const second = await rollup.rows(db, { projectId: actor.projectId, since, now: NOW });
    expect(sum(second)).toBe(8);
    const closedEnd = Math.floor((t - CLOSED_AFTER_MS) / HOUR) * HOUR;
    expect(asked).toEqual([
      { from: since.getTime(), to: Math.ceil(since.getTime() / HOUR) * HOUR },
      { from: closedEnd, to: null },
    ]);

    // An hour later, the hour that closed meanwhile is read once, and the window moved on.
    asked.length = 0;
    const later = new Date(t + HOUR);
    const laterSince = new Date(since.getTime() + HOUR);
    const third = await rollup.rows(db, { projectId: actor.projectId, since: laterSince, now: later });
    expect(sum(third)).toBe(await direct(db, actor.projectId, laterSince));
    expect(asked).toContainEqual({ from: closedEnd, to: closedEnd + HOUR });
    expect(asked).toHaveLength(3);

    // Forgotten (as by a restart): the whole window is read again, with the same answer.
    forgetClosedHours();
    asked.length = 0;
    expect(await rollup.rows(db, { projectId: actor.projectId, since: laterSince, now: later })).toEqual(third);
    expect(asked).toContainEqual({ from: Math.ceil(laterSince.getTime() / HOUR) * HOUR, to: closedEnd + HOUR });
  });

  it("keeps projects apart and reads a window longer than it keeps straight from the table", async () => {
    const db = await getDb();
    const { actor: a } = await seedProject({ name: "Rollup A" });
    const { actor: b } = await seedProject({ name: "Rollup B" });
    const t = NOW.getTime();
    await eventsAt(a.projectId, "shop", "x", [new Date(t - 5 * HOUR), new Date(t - 4 * HOUR)]);
    await eventsAt(b.projectId, "shop", "x", [new Date(t - 5 * HOUR)]);
    const { rollup, asked } = recordingRollup("test-rollup-b");
    const since = new Date(t - 12 * HOUR);
    expect(sum(await rollup.rows(db, { projectId: a.projectId, since, now: NOW }))).toBe(2);
    expect(sum(await rollup.rows(db, { projectId: b.projectId, since, now: NOW }))).toBe(1);

    asked.length = 0;
    const allTime = new Date(t - 30 * 24 * HOUR);
    expect(sum(await rollup.rows(db, { projectId: a.projectId, since: allTime, now: NOW }))).toBe(2);
    expect(asked).toEqual([{ from: allTime.getTime(), to: null }]);
  });

  it("gives the events chart the same series as grouping the table, under the screen's filters", async () => {
    const db = await getDb();
    const { actor } = await seedProject({ name: "Rollup chart" });
    const t = NOW.getTime();
    await eventsAt(actor.projectId, "shop", "order.created", [new Date(t - 30 * HOUR), new Date(t - 30 * HOUR + 5), new Date(t - 60_000)]);
    await eventsAt(actor.projectId, "billing", "invoice.paid", [new Date(t - 30 * HOUR), new Date(t - 2 * HOUR)]);
    await eventsAt(actor.projectId, "brynth", "request.resolved", [new Date(t - 2 * HOUR)]);
    const hourOf = (ms: number) => `${new Date(Math.floor(ms / HOUR) * HOUR).toISOString().slice(0, 13)}:00Z`;

    const all = await eventsPerHour(db, { projectId: actor.projectId, hours: 168, now: NOW });
    expect(all).toEqual([
      { hour: hourOf(t - 30 * HOUR), source: "billing", count: 1 },
      { hour: hourOf(t - 30 * HOUR), source: "shop", count: 2 },
      { hour: hourOf(t - 2 * HOUR), source: "billing", count: 1 },
      { hour: hourOf(t - 2 * HOUR), source: "brynth", count: 1 },
      { hour: hourOf(t - 60_000), source: "shop", count: 1 },
    ]);
    // Filters apply to the kept hours as to the open one: read again, nothing stale.
    expect(await eventsPerHour(db, { projectId: actor.projectId, hours: 168, now: NOW, hideBookkeeping: true, type: "order.*" })).toEqual([
      { hour: hourOf(t - 30 * HOUR), source: "shop", count: 2 },
      { hour: hourOf(t - 60_000), source: "shop", count: 1 },
    ]);
    expect(await eventsPerHour(db, { projectId: actor.projectId, hours: 168, now: NOW, source: "billing" })).toHaveLength(2);
    expect(await eventsPerHour(db, { projectId: actor.projectId, hours: 24, now: NOW, hideBookkeeping: true })).toEqual([
      { hour: hourOf(t - 2 * HOUR), source: "billing", count: 1 },
      { hour: hourOf(t - 60_000), source: "shop", count: 1 },
    ]);
  });

  it("names every source with events in the window whatever the filters, so a filter never recolours a source", async () => {
    const db = await getDb();
    const { actor } = await seedProject({ name: "Rollup colours" });
    const t = NOW.getTime();
    // `agent-2` has no source row (an agent's own, or a deleted source), sorts first and hashes to billing's colour.
    await eventsAt(actor.projectId, "agent-2", "note", [new Date(t - 3 * HOUR)]);
    await eventsAt(actor.projectId, "billing", "invoice.paid", [new Date(t - 2 * HOUR)]);
    const names = await eventSourceNames(db, { projectId: actor.projectId, hours: 168, now: NOW });
    expect(names).toEqual(["agent-2", "billing"]);
    const colourIn = async (source?: string) => {
      const points = await eventsPerHour(db, { projectId: actor.projectId, hours: 168, now: NOW, source });
      return sourceColors([...names, ...points.map((p) => p.source)]).get("billing");
    };
    expect(await colourIn("billing")).toBe(await colourIn());
    // From the filtered points alone (the screen before), billing took the slot agent-2 holds unfiltered.
    expect(sourceColors(["billing"]).get("billing")).not.toBe(await colourIn());
  });
});
