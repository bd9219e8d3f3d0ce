import { and, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { mailMessages } from "@/lib/db/schema/mail";
import { messageListQuery } from "@/lib/mail/messages/list-messages";
import { scopeCondition } from "@/lib/mail/messages/match-filters";
import { messagePageSql } from "@/lib/mail/messages/message-page";
import { searchMatch } from "@/lib/mail/messages/search-match";
import { threadListQuery } from "@/lib/mail/threads/list-threads";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";

/**
 * The default lists are an index range (drizzle/0012): threads by the partial visible_at indexes, messages by
 * (mailbox_id | project_id, msg_at, id), walked in order with no sort of the whole mailbox. EXPLAIN of the very
 * statements the tools run, over 6,000 threads and 24,000 messages (one in 200 holding a phrase, in every inbox); the
 * same on PGlite and Postgres.
 */
let projectId: string;
let mailboxId: string;
let deleted: string;

beforeAll(async () => {
  const seeded = await seedProject({ name: "Plans" });
  projectId = seeded.project.id;
  // Ten inboxes, as a project with several agents has: the one listed holds a tenth of the mail.
  const boxes: string[] = [];
  for (let i = 0; i < 10; i++) boxes.push((await seedMailbox(projectId)).id);
  mailboxId = boxes[0];
  deleted = boxes[9];
  const ids = sql.raw(`array[${boxes.map((b) => `'${b}'`).join(",")}]`);
  const db = await getDb();
  await db.execute(sql`insert into mail_threads (id, project_id, mailbox_id, subject, message_count, last_message_at, visible_at, created_at, updated_at)
    select 'thr_plan' || g, ${projectId}, (${ids})[1 + g % 10], 'Topic ' || g, 4,
      timestamptz '2026-01-01' + g * interval '1 minute', case when g % 10 = 0 then null else timestamptz '2026-01-01' + g * interval '1 minute' end,
      now(), now()
    from generate_series(1, 6000) g`);
  await db.execute(sql`insert into mail_messages (id, project_id, mailbox_id, thread_id, direction, status, subject, text, msg_at, labels)
    select 'msg_plan' || g, ${projectId}, (${ids})[1 + (g / 4) % 10], 'thr_plan' || greatest(1, g / 4),
      'inbound', 'received', 'Topic', 'body ' || g || case when g % 200 = 0 then ' password reset' else '' end, timestamptz '2026-01-01' + g * interval '15 seconds', '["received"]'::jsonb
    from generate_series(4, 24003) g`);
  await db.execute(sql`analyze mail_threads`);
  // VACUUM, not only ANALYZE: GIN's cost estimate reads the entry counts VACUUM writes to the index's metapage.
  await db.execute(sql`vacuum analyze mail_messages`);
});

const plan = async (q: { getSQL(): ReturnType<typeof sql> }, verbose = false) => {
  const rows = await query<{ "QUERY PLAN": string }>(await getDb(), sql`explain ${verbose ? sql`(verbose) ` : sql``}${q.getSQL()}`);
  const text = rows.map((r) => r["QUERY PLAN"]).join("\n");
  if (process.env.SHOW_PLANS) console.log(text);
  return text;
};
const page = { filter: {}, limit: 11, ascending: false, page: null };

describe("plans of the default lists", () => {
  it("list_threads of one inbox walks mail_threads_visible_idx; project-wide (a deleted inbox left out), mail_threads_project_visible_idx", async () => {
    const db = await getDb();
    const one = await plan(threadListQuery(db, { ...page, scope: { projectId, mailboxId, deletedMailboxIds: [] } }));
    expect(one).toContain("mail_threads_visible_idx");
    expect(one).not.toMatch(/^\s*(->\s*)?Sort/m);
    const wide = await plan(threadListQuery(db, { ...page, scope: { projectId, mailboxId: null, deletedMailboxIds: [deleted] } }));
    expect(wide).toContain("mail_threads_project_visible_idx");
    expect(wide).not.toMatch(/^\s*(->\s*)?Sort/m);
  });

  it("list_messages of one inbox walks mail_messages_mailbox_at_idx, in both orders", async () => {
    for (const ascending of [false, true]) {
      const text = await plan(messageListQuery({ ...page, ascending, scope: { projectId, mailboxId, deletedMailboxIds: [] } }));
      // The page's own walk, before the per-row subplan that gathers (and orders) one message's attachments.
      const walk = text.split(/^\s*SubPlan/m)[0];
      expect(walk).toContain("mail_messages_mailbox_at_idx");
      expect(walk).not.toMatch(/^\s*(->\s*)?Sort/m);
      expect(text).toMatch(/SubPlan[\s\S]*mail_attachments_message_idx/);
    }
  });

  it("list_messages reads no bodies: a page of 30 KB messages would spend its time detoasting them", async () => {
    const text = await plan(messageListQuery({ ...page, scope: { projectId, mailboxId, deletedMailboxIds: [] } }), true);
    const output = text.match(/Output: (.*)/)?.[1] ?? "";
    expect(output).toContain("mail_messages.preview");
    expect(output).not.toMatch(/mail_messages\.(text|html|extracted_text|extracted_html|headers)\b/);
  });
});

describe("plans of search", () => {
  it("a quoted phrase in one inbox is narrowed to that inbox inside the GIN index, not rechecked across the project", async () => {
    const scope = { projectId, mailboxId, deletedMailboxIds: [] };
    const where = and(scopeCondition(mailMessages, scope), ...searchMatch('"password reset"', {}));
    const text = await plan(messagePageSql({ where, ascending: false, limit: 11, bodies: false }));
    const walk = text.split(/^\s*SubPlan/m)[0];
    expect(walk).toContain("mail_messages_mailbox_search_idx");
    expect(walk).toMatch(/Index Cond: \(\(mailbox_id = [^\n]*search @@/);
  });
});
