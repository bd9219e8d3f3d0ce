import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { listThreads } from "@/lib/tools/mailboxes/list-threads";
import { searchThreads } from "@/lib/tools/mailboxes/search-threads";
import { actorVia, call, type Seeded } from "@/lib/tools/mailboxes/__tests__/mail-actors";
import { insertThread } from "@/lib/tools/mailboxes/__tests__/read-fixtures";

/**
 * A project-wide list or search (no inboxId) leaves out the project's soft-deleted mailboxes. Each id was bound as
 * a parameter of its own, and past 65,535 deleted mailboxes (a key with inbox_create and inbox_delete, about 22
 * minutes at the default call limit) every project-wide list_threads, search_threads and list_messages failed for
 * the whole project, the owner's included (found by helper-119). The rows are inserted directly here.
 */
let seeded: Seeded;
let thread: string;
beforeAll(async () => {
  seeded = await seedProject({ name: "Deleted" });
  const box = (await seedMailbox(seeded.project.id)).id;
  thread = (await insertThread(seeded.project.id, box, [{ at: "2026-11-22T07:00:00.000Z", subject: "Invoice", text: "the invoice" }])).threadId;
  const db = await getDb();
  const domain = await ensureDefaultDomain(db);
  await db.execute(
    sql.raw(`insert into mailboxes (id, project_id, domain_id, local_part, address, deleted_at)
      select 'mbx_gone' || g, '${seeded.project.id}', '${domain.id}', 'gone' || g, 'gone' || g || '@${domain.domain}', now()
      from generate_series(1, 65600) g`),
  );
}, 120_000);

describe("project-wide reads after many deleted mailboxes", () => {
  it("list_threads without inboxId", async () => {
    const out = await call(listThreads, actorVia(seeded, "mcp"), {});
    expect(out.threads.map((t: { thread_id: string }) => t.thread_id)).toEqual([thread]);
  });
  it("search_threads without inboxId", async () => {
    const out = await call(searchThreads, actorVia(seeded, "rest"), { q: "invoice" });
    expect(out.threads.map((t: { thread_id: string }) => t.thread_id)).toEqual([thread]);
  });
});
