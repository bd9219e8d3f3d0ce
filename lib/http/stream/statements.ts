import { and, asc, desc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { statement } from "@/lib/db/statement";
import { type MailEvent, mailEvents } from "@/lib/db/schema/mail-events";

/* The live stream's reads of the mail outbox (mail_events) in stream order, `(xid, seq)` (schema/mail-events.ts). */

export type StreamRow = MailEvent;

/** A place in stream order: every event is at one, and a client's last event_id names one. */
export interface StreamPosition {
  xid: number;
  seq: number;
}

export const START: StreamPosition = { xid: 0, seq: 0 };

/** a after b in stream order. */
export const isAfter = (a: StreamPosition, b: StreamPosition) => a.xid > b.xid || (a.xid === b.xid && a.seq > b.seq);

const after = (p: StreamPosition) => sql`(${mailEvents.xid}, ${mailEvents.seq}) > (${p.xid}, ${p.seq})`;
const notAfter = (p: StreamPosition) => sql`(${mailEvents.xid}, ${mailEvents.seq}) <= (${p.xid}, ${p.seq})`;
/** The oldest transaction still open when the statement began: rows of older ones are final. */
const XMIN = sql`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

/**
 * The final rows after the tail's position, in stream order, and whether committed rows wait behind an open older
 * transaction (`blocked`: their xid is not below the statement's xmin, so a row may still appear before them).
 * Only final rows are read, so rows that wait are not read again and again until they may go.
 */
export async function finalRowsAfter(db: Executor, from: StreamPosition, limit: number): Promise<{ rows: StreamRow[]; blocked: boolean }> {
  const rows = await finalRowsStatement(db, from.xid, from.seq, limit);
  return { rows: rows.filter((r) => r.seq !== null) as StreamRow[], blocked: rows[0]?.blocked ?? false };
}

type Nullable<T> = { [K in keyof T]: T[K] | null };

const finalRowsStatement = statement<Nullable<StreamRow> & { blocked: boolean }, [xid: number, seq: number, limit: number]>(`
  with s as (select pg_snapshot_xmin(pg_current_snapshot())::text::bigint as xmin),
  b as (select exists (select 1 from mail_events w, s where w.xid >= s.xmin and (w.xid, w.seq) > ($1, $2)) as blocked),
  f as (
    select e.* from mail_events e, s
    where (e.xid, e.seq) > ($1, $2) and e.xid < s.xmin
    order by e.xid, e.seq
    limit $3
  )
  select f.*, b.blocked from b left join f on true
  order by f.xid, f.seq`);

/** The last final position (nothing can come before it any more): where a starting tail begins. */
export async function lastFinalPosition(db: Executor): Promise<StreamPosition> {
  const [row] = await db
    .select({ xid: mailEvents.xid, seq: mailEvents.seq })
    .from(mailEvents)
    .where(sql`${mailEvents.xid} < ${XMIN}`)
    .orderBy(desc(mailEvents.xid), desc(mailEvents.seq))
    .limit(1);
  return row ?? START;
}

/** Where a `since` given as an event id starts: that event of the project, or nothing. */
export async function eventPosition(db: Executor, projectId: string, id: string): Promise<(StreamPosition & { createdAt: Date }) | undefined> {
  const [row] = await db
    .select({ xid: mailEvents.xid, seq: mailEvents.seq, createdAt: mailEvents.createdAt })
    .from(mailEvents)
    .where(and(eq(mailEvents.projectId, projectId), eq(mailEvents.id, id)));
  return row;
}

export interface ReplayFilter {
  projectId: string;
  mailboxIds: readonly string[] | null;
  eventTypes: readonly string[] | null;
  /** Exclusive. */
  after: StreamPosition;
  /** Inclusive: where the live tail took over. */
  upTo: StreamPosition;
  afterTime: Date | null;
}

/** One page of a replay: the project's events between two positions that match the subscription, in stream order. */
export function replayPage(db: Executor, f: ReplayFilter, limit: number): Promise<StreamRow[]> {
  const where: SQL[] = [eq(mailEvents.projectId, f.projectId), after(f.after), notAfter(f.upTo)];
  if (f.mailboxIds) where.push(inArray(mailEvents.mailboxId, [...f.mailboxIds]));
  // A deleted mailbox's mail is out of every list and read (delete-mailbox.ts): an unfiltered replay from before
  // its deletion would hand its messages and threads out again. (A filter names live mailboxes only.)
  else
    where.push(sql`(${mailEvents.mailboxId} is null or not exists (select 1 from mailboxes m
    where m.project_id = ${mailEvents.projectId} and m.id = ${mailEvents.mailboxId} and m.deleted_at is not null))`);
  if (f.eventTypes) where.push(inArray(mailEvents.type, [...f.eventTypes]));
  if (f.afterTime) where.push(gt(mailEvents.createdAt, f.afterTime));
  return db
    .select()
    .from(mailEvents)
    .where(and(...where))
    .orderBy(asc(mailEvents.xid), asc(mailEvents.seq))
    .limit(limit);
}
