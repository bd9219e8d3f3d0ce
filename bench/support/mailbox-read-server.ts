/**
 * Brynth's API on the fast path, without Next, for bench/mailbox-read.ts, on DATABASE_URL (unset: PGlite under
 * DATA_DIR). Seeds a project, 10 mailboxes and MESSAGES messages (4 to a thread, about 1 KB of text from a
 * 400-word vocabulary plus planted rare words and phrases) with bulk INSERT … SELECT, one 50-message thread of
 * 20 KB messages, then runs the raw SQL search baseline in this same process (so PGlite can be measured too) and
 * prints `ready <url> <key> <mailbox ids,> <big thread id> <baseline json>`.
 */
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { mailboxes } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { listenApi } from "@/lib/testing/listen-api";
import { seedProject } from "@/lib/testing/seed";
import { closedLoop } from "./load";

process.on("SIGTERM", () => process.exit(0));

const MESSAGES = Number(process.env.MESSAGES ?? 100_000);
const MAILBOXES = 10;
const BASELINE_SECONDS = Number(process.env.BASELINE_SECONDS ?? 3);
const QUERIES = { common: "invoice", rare: "zebrafish", two_term: "refund pricing", or: "narwhal or quokka", phrase: '"password reset"' };

/** 400 filler words plus the common terms the queries look for; `invoice`, `refund`, `pricing` are among them. */
const VOCABULARY = [...Array.from({ length: 397 }, (_, i) => `w${i.toString(36)}x`), "invoice", "refund", "pricing"];

async function seed(projectId: string) {
  const db = await getDb();
  const domain = await ensureDefaultDomain(db);
  const boxes = Array.from({ length: MAILBOXES }, (_, i) => ({
    id: newId("mbx"),
    projectId,
    domainId: domain.id,
    localPart: `bench-${i}-${process.pid}`,
    address: `bench-${i}-${process.pid}@${domain.domain}`,
  }));
  await db.insert(mailboxes).values(boxes);
  const ids = `array[${boxes.map((b) => `'${b.id}'`).join(",")}]`;
  const words = `array[${VOCABULARY.map((w) => `'${w}'`).join(",")}]`;
  const threads = Math.ceil(MESSAGES / 4);
  // Threads first (summary columns as the store keeps them), then their messages, in batches of 10,000 rows.
  for (let from = 0; from < threads; from += 10_000) {
    const to = Math.min(threads, from + 10_000) - 1;
    await db.execute(
      sql.raw(`insert into mail_threads (id, project_id, mailbox_id, subject, base_subject, message_count, last_message_at, last_message_id, preview,
        senders, recipients, labels, visible_at, size_bytes, created_at, updated_at)
      select 'thr_bench' || t, '${projectId}', (${ids})[1 + t % ${MAILBOXES}], 'Topic ' || t, 'topic ' || t, 4,
        timestamptz '2026-01-01' + (t * 4 + 3) * interval '10 seconds', 'msg_bench' || (t * 4 + 3), 'preview of topic ' || t,
        jsonb_build_array('sender' || (t % 500) || '@example.org'), jsonb_build_array('team@corp.test'), '["received","unread"]'::jsonb,
        timestamptz '2026-01-01' + (t * 4 + 3) * interval '10 seconds', 4400, timestamptz '2026-01-01' + t * 4 * interval '10 seconds',
        timestamptz '2026-01-01' + (t * 4 + 3) * interval '10 seconds'
      from generate_series(${from}, ${to}) t`),
    );
  }
  for (let from = 0; from < MESSAGES; from += 10_000) {
    const to = Math.min(MESSAGES, from + 10_000) - 1;
    await db.execute(
      sql.raw(`insert into mail_messages (id, project_id, mailbox_id, thread_id, direction, status, rfc_message_id, from_address, "to", subject,
        text, extracted_text, preview, category, labels, msg_at, received_at, size_bytes, created_at, updated_at)
      select 'msg_bench' || g, '${projectId}', (${ids})[1 + (g / 4) % ${MAILBOXES}], 'thr_bench' || (g / 4), 'inbound', 'received',
        'bench-' || g || '@example.org', 'sender' || ((g / 4) % 500) || '@example.org', '["team@corp.test"]'::jsonb,
        case when g % 4 = 0 then 'Topic ' else 'Re: Topic ' end || (g / 4), body, body, left(body, 200),
        case when g % 97 = 0 then 'spam' else 'normal' end, '["received","unread"]'::jsonb,
        timestamptz '2026-01-01' + g * interval '10 seconds', timestamptz '2026-01-01' + g * interval '10 seconds', 1100,
        timestamptz '2026-01-01' + g * interval '10 seconds', timestamptz '2026-01-01' + g * interval '10 seconds'
      from (
        select g, (select string_agg((${words})[1 + ((g * 7919 + i * 104729 + (g % 13) * i * i) % ${VOCABULARY.length})], ' ') from generate_series(1, 150) i)
          || case when g % 2000 = 7 then ' zebrafish' else '' end
          || case when g % 1500 = 11 then ' narwhal' else '' end
          || case when g % 1700 = 13 then ' quokka' else '' end
          || case when g % 50 = 17 then ' your password reset link' else '' end as body
        from generate_series(${from}, ${to}) g
      ) s`),
    );
  }
  // The big thread: 50 inbound messages of about 20 KB (10 KB text, 10 KB html) in the first mailbox.
  await db.execute(
    sql.raw(`insert into mail_threads (id, project_id, mailbox_id, subject, base_subject, message_count, last_message_at, last_message_id, preview,
      senders, recipients, labels, visible_at, size_bytes, created_at, updated_at)
    values ('thr_big', '${projectId}', '${boxes[0].id}', 'Big thread', 'big thread', 50, timestamptz '2027-01-01' + 49 * interval '1 minute',
      'msg_big49', 'the latest', '["ann@example.org"]', '["team@corp.test"]', '["received"]', timestamptz '2027-01-01' + 49 * interval '1 minute',
      1000000, timestamptz '2027-01-01', timestamptz '2027-01-01')`),
  );
  await db.execute(
    sql.raw(`insert into mail_messages (id, project_id, mailbox_id, thread_id, direction, status, rfc_message_id, from_address, "to", subject,
      text, html, extracted_text, preview, labels, msg_at, received_at, size_bytes, created_at, updated_at)
    select 'msg_big' || g, '${projectId}', '${boxes[0].id}', 'thr_big', 'inbound', 'received', 'big-' || g || '@example.org', 'ann@example.org',
      '["team@corp.test"]', 'Re: Big thread', repeat('Line ' || g || ' of a long message about the quarter. ', 250),
      '<p>' || repeat('Line ' || g || ' of a long message about the quarter. ', 250) || '</p>', repeat('Line ' || g || ' of the reply. ', 100),
      'Line ' || g || ' of the reply.', '["received"]', timestamptz '2027-01-01' + g * interval '1 minute', timestamptz '2027-01-01' + g * interval '1 minute',
      20000, timestamptz '2027-01-01' + g * interval '1 minute', timestamptz '2027-01-01' + g * interval '1 minute'
    from generate_series(0, 49) g`),
  );
  // VACUUM as well: GIN's cost estimate reads entry counts that only VACUUM writes (autovacuum would, in time).
  await db.execute(sql.raw("vacuum analyze mail_messages"));
  await db.execute(sql.raw("analyze mail_threads"));
  return boxes.map((b) => b.id);
}

/** The statement search_messages runs, written by hand: the floor the tool's pipeline is compared with. */
async function rawBaseline(projectId: string, boxes: string[]) {
  const db = await getDb();
  const out: Record<string, unknown> = {};
  for (const [shape, q] of Object.entries(QUERIES)) {
    // BENCH_EXPLAIN=1: the plan of each shape on stderr, to see why one is slow.
    if (process.env.BENCH_EXPLAIN) {
      const plan = await query<{ "QUERY PLAN": string }>(
        db,
        sql`explain (analyze, buffers) select id, msg_at from mail_messages where project_id = ${projectId} and mailbox_id = ${boxes[0]}
          and search @@ websearch_to_tsquery('simple', ${q}) and category <> 'spam' and not labels @> '["trash"]'::jsonb
          order by msg_at desc, id desc limit 11`,
      );
      console.error(`plan ${shape}:\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}`);
    }
    let n = 0;
    out[shape] = await closedLoop(4, BASELINE_SECONDS, async () => {
      const mailbox = boxes[n++ % boxes.length];
      await query(
        db,
        sql`select id, msg_at from mail_messages where project_id = ${projectId} and mailbox_id = ${mailbox}
          and search @@ websearch_to_tsquery('simple', ${q}) and category <> 'spam' and not labels @> '["trash"]'::jsonb
          order by msg_at desc, id desc limit 11`,
      );
    });
  }
  return out;
}

async function main() {
  const { url } = await listenApi();
  const { secret, project } = await seedProject({ name: `bench ${process.pid}` });
  const started = performance.now();
  const boxes = await seed(project.id);
  const seedSeconds = (performance.now() - started) / 1000;
  const baseline = await rawBaseline(project.id, boxes);
  console.log(`ready ${url} ${secret} ${boxes.join(",")} thr_big ${JSON.stringify({ seed_seconds: Number(seedSeconds.toFixed(1)), raw_sql: baseline })}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
