import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { queryRows } from "@/lib/db/rows";
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
      const rows = await queryRows<{ "QUERY PLAN": string }>(tx, sql.raw(`explain execute first_of_source('${project.id}', 'quiet')`));
      await tx.execute(sql`deallocate first_of_source`);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("events_live_source_idx");
  });
});
