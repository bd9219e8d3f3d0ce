import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { seedEvents } from "@/lib/testing/events";
import { ackEvent } from "@/lib/events/ack-event";
import { claimEvent } from "@/lib/events/claim-event";
import { listEvents } from "@/lib/events/list-events";
import { AppError } from "@/lib/errors";

// Real concurrency needs real connections: PGlite runs one query at a time, so these races cannot happen there.
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

describe.runIf(onPostgres)("claims under concurrency (PostgreSQL)", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(() => server.close());

  it("lets exactly one of 50 simultaneous claims of one event win, over REST", async () => {
    const { project, secret } = await seedProject();
    const [id] = await seedEvents(project.id, [{ type: "race.one" }]);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${server.url}/api/v1/events/${id}/claim`, {
          method: "POST",
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          body: "{}",
        }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners.length).toBe(1);
    const losers = results.filter((r) => r.status !== 200);
    expect(new Set(losers.map((r) => `${r.status} ${r.body.error.code}`))).toEqual(new Set(["409 CONFLICT"]));
    const [attempts] = await query<{ n: number }>(await getDb(), sql`select count(*)::int as n from event_attempts where event_id = ${id}`);
    expect(attempts.n).toBe(1);
  });

  it("drains 10,000 events with 16 consumers: every event claimed and acked exactly once", async () => {
    const { project, actor } = await seedProject({ name: "drain" });
    const db = await getDb();
    const total = 10_000;
    // One statement for the fixture; events written one by one are covered elsewhere.
    await db.execute(sql`insert into events (id, project_id, source, type, status, trust, payload, content_type, payload_size,
        headers, received_at, available_at)
      select 'evt_drain' || g, ${project.id}, 'brynth', 'job.run', 'pending', 'brynth', json_build_object('n', g), 'application/json', 10,
        '{}'::jsonb, now() - interval '1 minute' + g * interval '1 millisecond', now()
      from generate_series(1, ${total}) g`);
    const wins = new Map<string, number>();
    let conflicts = 0;
    const consumer = async (n: number) => {
      // The domain functions the tools call (the REST race above covers the HTTP path), one transaction each.
      const me = { ...actor, type: "key" as const, keyId: `consumer-${n}`, agent: `consumer-${n}`, via: "rest" as const };
      for (;;) {
        const page = await listEvents(db, { actor: me, status: "pending", limit: 100 });
        if (page.events.length === 0) return;
        // Independent agents pick a few events of what they see, in their own order; collisions still happen
        // (all 16 see the same oldest events) and must be refused.
        const order = page.events
          .map((e) => e.id)
          .sort(() => Math.random() - 0.5)
          .slice(0, 10);
        for (const id of order) {
          try {
            await db.transaction((tx) => claimEvent(tx, { actor: me, eventId: id, leaseSeconds: 600 }));
          } catch (err) {
            if (err instanceof AppError && err.code === "CONFLICT") {
              conflicts++;
              continue;
            }
            throw err;
          }
          wins.set(id, (wins.get(id) ?? 0) + 1);
          await db.transaction((tx) => ackEvent(tx, { actor: me, eventId: id }));
        }
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: 16 }, (_, n) => consumer(n)));
    const seconds = (Date.now() - started) / 1000;
    const doubles = [...wins.values()].filter((n) => n > 1).length;
    expect(doubles).toBe(0);
    expect(wins.size).toBe(total);
    const [counts] = await query<{ done: number; other: number; attempts: number }>(
      db,
      sql`select count(*) filter (where status = 'done')::int as done, count(*) filter (where status <> 'done')::int as other,
            (select count(*)::int from event_attempts where project_id = ${project.id}) as attempts
          from events where project_id = ${project.id}`,
    );
    expect(counts).toEqual({ done: total, other: 0, attempts: total });
    console.log(`drained ${total} events in ${seconds.toFixed(1)} s; ${conflicts} lost races answered CONFLICT`);
  }, 300_000);
});
