import type postgres from "postgres";
import type { KvBook } from "./kv-book";

/** One verdict: its counts, and the failures (an empty list passes). */
export interface Check {
  counts: Record<string, number>;
  failures: string[];
}

const firstFew = (items: string[]) => (items.length > 5 ? [...items.slice(0, 5), `…and ${items.length - 5} more`] : items);

/** Every delivery answered 2xx is stored exactly once, as the event its answer named. */
export async function checkDeliveries(sql: postgres.Sql, projectId: string, source: string, acknowledged: Map<string, string>): Promise<Check> {
  const rows = await sql<{ id: string; dedupe_key: string }[]>`
    select id, dedupe_key from events where project_id = ${projectId} and source = ${source}`;
  const byKey = new Map<string, string[]>();
  for (const r of rows) byKey.set(r.dedupe_key, [...(byKey.get(r.dedupe_key) ?? []), r.id]);
  const failures: string[] = [];
  for (const [webhookId, eventId] of acknowledged) {
    const stored = byKey.get(webhookId) ?? [];
    if (stored.length !== 1) failures.push(`delivery ${webhookId} was answered 2xx but is stored ${stored.length} times`);
    else if (stored[0] !== eventId) failures.push(`delivery ${webhookId} was answered as ${eventId} but is stored as ${stored[0]}`);
  }
  for (const [webhookId, ids] of byKey) if (ids.length > 1) failures.push(`webhook-id ${webhookId} is stored ${ids.length} times`);
  return {
    counts: { acknowledged: acknowledged.size, stored: rows.length, stored_without_2xx: rows.length - acknowledged.size },
    failures: firstFew(failures),
  };
}

/** No event completed twice: at most one acked attempt per event in the DB, and one first ack per event seen. */
export async function checkCompletions(sql: postgres.Sql, projectId: string, source: string, completions: Map<string, number>): Promise<Check> {
  const acked = await sql<{ event_id: string; n: number }[]>`
    select a.event_id, count(*)::int as n from event_attempts a join events e on e.id = a.event_id
    where a.project_id = ${projectId} and e.source = ${source} and a.outcome = 'acked' group by a.event_id`;
  const [{ done }] = await sql<{ done: number }[]>`
    select count(*)::int as done from events where project_id = ${projectId} and source = ${source} and status = 'done'`;
  const failures: string[] = [];
  for (const r of acked) if (r.n > 1) failures.push(`event ${r.event_id} has ${r.n} acked attempts`);
  for (const [id, n] of completions) if (n > 1) failures.push(`event ${id} was answered as a first ack ${n} times`);
  const ackedInDb = new Set(acked.map((r) => r.event_id));
  for (const id of completions.keys()) if (!ackedInDb.has(id)) failures.push(`event ${id} was acked but has no acked attempt`);
  if (done !== acked.length) failures.push(`${done} events are done but ${acked.length} have an acked attempt`);
  return {
    counts: { acked_by_workers: completions.size, done_in_db: done, acked_attempts_in_db: acked.reduce((s, r) => s + r.n, 0) },
    failures: firstFew(failures),
  };
}

/** Every key reads back its last saved write, or a newer attempted one; no read during the run was stale. */
export async function checkKv(read: (key: string) => Promise<number | null>, book: KvBook): Promise<Check> {
  const failures = [...book.stale];
  for (const [key, { attempted, saved }] of book.keys) {
    if (saved === 0 && attempted === 0) continue;
    const seq = await read(key).catch((err: Error) => err.message);
    if (typeof seq === "string") failures.push(seq);
    else if ((seq ?? 0) < saved || (seq ?? 0) > attempted) failures.push(`${key} reads back ${seq}; saved ${saved}, last attempted ${attempted}`);
  }
  return { counts: { keys: book.keys.size, ...book.tally }, failures: firstFew(failures) };
}

/**
 * After the faults every instance serves again, each of the paths the load used: a call that gets no answer here
 * means a request is stuck on that instance (e.g. behind a statement that never settled when PostgreSQL restarted).
 */
export async function checkRecovery(
  instances: { name: string; base: string }[],
  probe: (base: string) => Promise<Record<string, number | string>>,
): Promise<Check> {
  const failures: string[] = [];
  let calls = 0;
  for (const { name, base } of instances) {
    for (const [path, status] of Object.entries(await probe(base))) {
      calls++;
      if (status !== 200) failures.push(`${name}: ${path} answered ${status} after the faults`);
    }
  }
  return { counts: { calls }, failures };
}

/**
 * Faults may cost answers (502 from the proxy, 503 while the database restarts, timeouts), never a server error: a
 * 500 or an internal_error tool result means a fault reached a caller as a bug.
 */
export function checkAnswers(answers: Record<string, unknown>): Check {
  const failures: string[] = [];
  let counted = 0;
  const walk = (node: unknown, path: string) => {
    if (typeof node === "number") {
      counted += node;
      const answer = path.slice(path.lastIndexOf(".") + 1);
      if (answer === "500" || answer.includes("internal_error")) failures.push(`${path}: ${node} answers`);
      return;
    }
    if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(answers, "");
  return { counts: { answers: counted }, failures };
}
