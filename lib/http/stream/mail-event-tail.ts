import { getDb } from "@/lib/db/client";
import { listen } from "@/lib/db/notify";
import { mailEventFrames } from "@/lib/http/stream/mail-event-frame";
import { finalRowsAfter, lastFinalPosition, START, type StreamPosition, type StreamRow } from "@/lib/http/stream/statements";
import type { StreamFrame } from "@/lib/http/stream/stream-frame";
import { MAIL_EVENTS_CHANNEL } from "@/lib/mail/events/mail-events-channel";

/** One socket's interest in the tail: its project, its filter, and where its frames go. */
export interface TailSubscriber {
  readonly projectId: string;
  wants(row: StreamRow): boolean;
  deliver(frame: StreamFrame): void;
}

const PAGE = 500;
/** A read even without a notice: a NOTIFY is sent after its commit, and a crash in between loses it. */
const SAFETY_READ_MS = 5_000;
/**
 * Rereads while committed rows wait behind an open older transaction, which sends no notice when it ends if it
 * wrote no mail event: the first soon, then slower while nothing moves.
 */
const BLOCKED_RETRY_MS = [10, 20, 50, 100, 250, 500, 1000];
/** Frames built at once, with a few set-based reads for the whole batch (mailEventFrames). */
const BUILD_BATCH = 50;

/**
 * The process's one reader of the mail outbox for the live stream (design §2.9). On each `brynth_mail_events`
 * notice it reads the new rows ONCE for every socket of the instance, builds each matching row's frame once, and
 * hands the same frame to every socket that wants it.
 *
 * It walks stream order, `(xid, seq)` (schema/mail-events.ts), and passes a row only once its transaction is
 * below the snapshot's xmin, so no row can later appear before one it passed: every socket gets the events in
 * one order, a client's last event_id is a safe `since`, and a resume after a drop loses nothing. A row committed
 * while an older transaction is still open waits for it (BLOCKED_RETRY_MS); on a busy instance that is the span of
 * the longest write transaction in flight, milliseconds.
 */
class MailEventTail {
  private position: StreamPosition = START;
  private readonly byProject = new Map<string, Set<TailSubscriber>>();
  private ready: Promise<StreamPosition> | null = null;
  private started = false;
  private reading = false;
  private again = false;
  private retry: NodeJS.Timeout | null = null;
  private blockedReads = 0;

  /**
   * Adds a subscriber once the tail is live, and returns the tail's position then: it gets every event after it,
   * and every event up to it was final before it joined, for a replay to read (stream-session.ts).
   */
  async attach(sub: TailSubscriber): Promise<StreamPosition> {
    let subs = this.byProject.get(sub.projectId);
    if (!subs) this.byProject.set(sub.projectId, (subs = new Set()));
    subs.add(sub);
    if (this.started) {
      const at = this.position;
      // Rows committed while nobody listened are read now, not at the next notice.
      this.schedule();
      return at;
    }
    this.ready ??= this.start().catch((err) => {
      this.ready = null;
      throw err;
    });
    // Nothing is delivered before start() ends, so every subscriber that joined meanwhile shares its position.
    return this.ready;
  }

  detach(sub: TailSubscriber): void {
    const subs = this.byProject.get(sub.projectId);
    if (!subs?.delete(sub)) return;
    if (subs.size === 0) this.byProject.delete(sub.projectId);
  }

  private async start(): Promise<StreamPosition> {
    await listen(
      MAIL_EVENTS_CHANNEL,
      () => this.schedule(),
      () => this.schedule(),
    );
    this.position = await lastFinalPosition(await getDb());
    setInterval(() => this.byProject.size > 0 && this.schedule(), SAFETY_READ_MS).unref();
    this.started = true;
    this.schedule();
    return this.position;
  }

  private schedule(): void {
    if (!this.started || this.byProject.size === 0) return;
    if (this.reading) return void (this.again = true);
    this.reading = true;
    this.readAll()
      .catch((err) => console.error("[brynth] stream: reading mail events failed", err))
      .finally(() => {
        this.reading = false;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
  }

  private async readAll(): Promise<void> {
    const db = await getDb();
    for (;;) {
      const { rows, blocked } = await finalRowsAfter(db, this.position, PAGE);
      // Who gets each row is settled with the position's move, before any await: attach() relies on it.
      const due: { row: StreamRow; to: TailSubscriber[] }[] = [];
      for (const row of rows) {
        const to = [...(this.byProject.get(row.projectId) ?? [])].filter((s) => s.wants(row));
        if (to.length) due.push({ row, to });
      }
      if (rows.length > 0) this.position = { xid: rows[rows.length - 1].xid, seq: rows[rows.length - 1].seq };
      await this.deliver(db, due);
      if (rows.length === PAGE) continue;
      if (blocked) return this.retryBlocked(rows.length > 0);
      this.blockedReads = 0;
      return;
    }
  }

  private retryBlocked(moved: boolean): void {
    if (moved) this.blockedReads = 0;
    if (this.retry) return;
    const ms = BLOCKED_RETRY_MS[Math.min(this.blockedReads++, BLOCKED_RETRY_MS.length - 1)];
    this.retry = setTimeout(() => {
      this.retry = null;
      this.schedule();
    }, ms);
  }

  private async deliver(db: Awaited<ReturnType<typeof getDb>>, due: { row: StreamRow; to: TailSubscriber[] }[]): Promise<void> {
    for (let i = 0; i < due.length; i += BUILD_BATCH) {
      const batch = due.slice(i, i + BUILD_BATCH);
      const frames = await mailEventFrames(
        db,
        batch.map((d) => d.row),
      );
      batch.forEach((d, j) => {
        for (const s of d.to) s.deliver(frames[j]);
      });
    }
  }
}

const g = globalThis as { __brynthMailTail?: MailEventTail };

/** The process's tail (on globalThis: Next bundles route code apart from server.ts, ARCHITECTURE §2). */
export function mailEventTail(): MailEventTail {
  return (g.__brynthMailTail ??= new MailEventTail());
}
