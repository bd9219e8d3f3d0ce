import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { HELD_BY } from "@/lib/events/statements";
import { seedProject } from "@/lib/testing/seed";
import { envelopeSelect, LIST_INLINE_BYTES } from "@/lib/events/event-envelope";
import { IS_CLAIMABLE } from "@/lib/events/event-status";

// Statements are prepared (pipelined-client.ts), so Postgres may settle on one generic plan for every source. That
// plan must still find a quiet source's few events without walking every live event of a busy one.
describe("plans for events filtered by source", () => {
  it("use the live source index even as a generic plan", async () => {
    const { project } = await seedProject();
    const db = await getDb();
    await db.execute(sql`insert into events (id, project_id, source, type, status, trust, payload, payload_size, headers, received_at, available_at)
      select 'evt_busy_' || g, ${project.id}, 'busy', 'invoice.paid', 'pending', 'external_untrusted', '{}'::json, 2, '{}'::jsonb, now(), now()
      from generate_series(1, 3000) g`);
    await db.execute(sql`analyze events`);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(
        sql.raw(`prepare first_of_source (text, text) as select ${envelopeSelect(LIST_INLINE_BYTES)} from events
          where events.project_id = $1 and ${IS_CLAIMABLE} and events.source = $2 order by events.received_at, events.id limit 1`),
      );
      const rows = await query<{ "QUERY PLAN": string }>(tx, sql.raw(`explain execute first_of_source('${project.id}', 'quiet')`));
      await tx.execute(sql`deallocate first_of_source`);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("events_live_source_idx");
  });
});

// Ack and nack find the lease holder's event by id and `status = 'claimed'` (HELD_BY, statements.ts). Claimed events are few at any moment,
// so statistics gathered then say no row has that status, and a status index looked as cheap as the primary key:
// Postgres then walked every claimed entry of the project, dead ones included, for each ack (135 pages a call in
// bench/events.ts against 44 for the claim).
describe("plans for the lease holder's event", () => {
  it("find it by primary key even when the statistics say nothing is claimed", async () => {
    const { project } = await seedProject();
    const db = await getDb();
    await db.execute(sql`insert into events (id, project_id, source, type, status, trust, payload, payload_size, headers, received_at, available_at)
      select 'evt_held_' || g, ${project.id}, 'busy', 'invoice.paid', case when g % 2 = 0 then 'done' else 'pending' end, 'external_untrusted',
        '{}'::json, 2, '{}'::jsonb, now(), now()
      from generate_series(1, 3000) g`);
    await db.execute(sql`analyze events`);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare held_event (text, text, text, text) as update events set updated_at = now() where ${HELD_BY}`));
      const rows = await query<{ "QUERY PLAN": string }>(tx, sql.raw(`explain execute held_event('evt_held_1', '${project.id}', 'key_x', null)`));
      await tx.execute(sql`deallocate held_event`);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("events_pkey");
  });
});
