import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { onEventChange } from "@/lib/events/events-channel";
import { type StreamActor, watchCredentialEnd } from "@/lib/auth/credential-ends";
import { mailEventFrames } from "@/lib/http/stream/mail-event-frame";
import { mailEventTail, type TailSubscriber } from "@/lib/http/stream/mail-event-tail";
import { isAfter, replayPage, START } from "@/lib/http/stream/statements";
import { errorFrame, frame, type StreamFrame } from "@/lib/http/stream/stream-frame";
import { resolveSubscription, SUBSCRIBE_FIX, type Subscription, wantsEvent } from "@/lib/http/stream/subscription";

/** Where a session's frames go: a WebSocket or an SSE response. */
export interface FrameSink {
  send(frame: StreamFrame): void;
  /** Bytes sent but not yet taken by the client. */
  backlog(): number;
  /** 1013 (try again later) when the client cannot keep up; SSE has no codes and just ends. */
  close(code: number, reason: string): void;
}

/**
 * What a socket may hold unsent, beyond what the kernel took, before it is closed with 1013 (design §2.9: slow
 * sockets get a bounded buffer): about 130 events at the 32 KB cap, room for a burst such as a mailbox import.
 */
export const MAX_BACKLOG_BYTES = 4 << 20;
const REPLAY_PAGE = 200;
/** Replayed frames built at once (each reads the database), as the tail builds its batches. */
const REPLAY_BUILD = 25;
/** How long a replay waits for a slow client to take half its backlog before giving up on it. */
const REPLAY_STALL_MS = 30_000;
/**
 * Client frames received but not yet answered. ws reads a socket as fast as it arrives, and each subscribe waits on
 * the database, so a client sending 32 KB subscribes without waiting had the server hold them all: 95 MB in two
 * seconds from one socket, and growing as fast as it could send. Past this many, a frame is answered `rate_limited`
 * at once and dropped; a client that waits for each answer never comes near it.
 */
export const MAX_PENDING_FRAMES = 16;

/**
 * One client's stream, the same on both transports: a subscription (replaced by each `subscribe`), its replay from
 * `since`, then live frames from the process's tail (mail events) and the event channel (event-inbox changes).
 *
 * The seam between replay and live is a position in stream order (statements.ts): the tail says where it stood
 * when it took the subscriber (it delivers every event after that), the replay reads the events from `since` up
 * to there, and the live frames wait in `held` until it ends. A live frame at or before an event-id `since` is one
 * the client has (it saw it on a faster instance) and is dropped.
 */
export class StreamSession {
  private closed = false;
  private gen = 0;
  private tailSub: TailSubscriber | null = null;
  private stopChanges: (() => void) | null = null;
  /** Frames are handled one after another, so a second subscribe waits for the first's replay. */
  private queue: Promise<void> = Promise.resolve();
  /** Client frames in `queue` (MAX_PENDING_FRAMES). */
  private pending = 0;

  private readonly unwatchCredential: () => void;

  constructor(
    private readonly actor: StreamActor,
    private readonly sink: FrameSink,
  ) {
    // 1008 (policy violation): the credential that opened the stream is no longer valid.
    this.unwatchCredential = watchCredentialEnd(actor, (reason) => this.close(1008, reason));
  }

  /** A WebSocket text frame from the client. */
  receive(text: string): void {
    if (this.pending >= MAX_PENDING_FRAMES) {
      const problem = `${MAX_PENDING_FRAMES} frames are already waiting for an answer; this one was dropped.`;
      this.push(errorFrame("rate_limited", problem, "Wait for each frame's answer before sending the next."));
      return;
    }
    this.pending++;
    this.queue = this.queue
      .then(() => this.handle(text))
      .catch((err) => this.fail(err))
      .finally(() => this.pending--);
  }

  /**
   * A WebSocket binary frame: refused as every answer is sent, within the backlog limit. Answered straight to the
   * socket, a client that sends binary frames and reads nothing grew the server's buffer without bound.
   */
  receiveBinary(): void {
    this.push(errorFrame("validation_error", "Frames are JSON text, not binary.", SUBSCRIBE_FIX));
  }

  /**
   * Starts a subscription resolved beforehand (SSE resolves it before answering, to fail with an HTTP status).
   * `onSubscribed` runs once the `subscribed` frame is out, before any replay.
   */
  start(sub: Subscription, onSubscribed?: () => void): Promise<void> {
    this.queue = this.queue.then(() => this.run(sub, onSubscribed)).catch((err) => this.fail(err));
    return this.queue;
  }

  /** The transport closed: stop listening. */
  dispose(): void {
    this.closed = true;
    this.unwatchCredential();
    this.stopLive();
  }

  private async handle(text: string): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.push(errorFrame("validation_error", "The frame is not JSON.", SUBSCRIBE_FIX));
    }
    const type = msg && typeof msg === "object" && !Array.isArray(msg) ? (msg as { type?: unknown }).type : undefined;
    if (type === "ping") return this.push(frame({ type: "pong" }));
    if (type !== "subscribe") {
      const problem = typeof type === "string" ? `type: unknown frame type "${type.slice(0, 40)}"` : "type: is required (a JSON object with a type)";
      return this.push(errorFrame("validation_error", problem, SUBSCRIBE_FIX));
    }
    const { type: _, ...input } = msg as Record<string, unknown>;
    await this.run(await resolveSubscription(await getDb(), this.actor, input));
  }

  private fail(err: unknown): void {
    if (err instanceof AppError) {
      this.push(errorFrame(err.code, err.message, err.fix));
    } else {
      console.error("[brynth] stream failed", err);
      this.push(errorFrame("internal_error", "The stream failed; reconnect and resubscribe with since."));
    }
  }

  private async run(sub: Subscription, onSubscribed?: () => void): Promise<void> {
    const gen = ++this.gen;
    this.stopLive();
    if (this.closed) return;
    const live = () => gen === this.gen && !this.closed;
    // Live mail frames wait here while the replay runs (null: straight through).
    let held: StreamFrame[] | null = sub.since ? [] : null;
    // What waits in `held` counts with the socket's backlog: uncounted, a client reading a trickle kept the replay
    // going while every live event of its project piled up here (found by helper-115).
    let heldBytes = 0;
    const seen = sub.since && !sub.since.afterTime ? sub.since.after : null;
    let joined = START;
    if (sub.mailEvents) {
      const tailSub: TailSubscriber = {
        projectId: sub.projectId,
        wants: (row) => wantsEvent(sub, row),
        deliver: (f) => {
          if (!live() || (seen && f.pos && !isAfter(f.pos, seen))) return;
          if (!held) return this.push(f);
          held.push(f);
          heldBytes += f.json.length;
          if (heldBytes + this.sink.backlog() > MAX_BACKLOG_BYTES) this.close(1013, "The client fell too far behind; reconnect and resubscribe with since.");
        },
      };
      this.tailSub = tailSub;
      joined = await mailEventTail().attach(tailSub);
    }
    if (sub.eventChanges) {
      this.stopChanges = await onEventChange((c) => {
        if (c.project === sub.projectId && live()) {
          this.push(frame({ type: "event_change", event_id: c.id, source: c.source, event_type: c.type, status: c.status }));
        }
      });
    }
    if (!live()) return;
    this.push(
      frame({
        type: "subscribed",
        inbox_ids: sub.mailEvents ? sub.mailboxIds : [],
        event_types: sub.mailEvents ? sub.eventTypes : [],
        event_changes: sub.eventChanges,
      }),
    );
    onSubscribed?.();
    if (!sub.since) return;
    const db = await getDb();
    const filter = { projectId: sub.projectId, mailboxIds: sub.mailboxIds, eventTypes: sub.eventTypes, afterTime: sub.since.afterTime, upTo: joined };
    let after = sub.since.after;
    for (;;) {
      const rows = await replayPage(db, { ...filter, after }, REPLAY_PAGE);
      // Built REPLAY_BUILD at a time with a few reads for all (mailEventFrames), not one after another with three
      // reads each: a reconnect after a minute's gap replays thousands (bench/mail-stream.ts).
      for (let i = 0; i < rows.length; i += REPLAY_BUILD) {
        const frames = await mailEventFrames(db, rows.slice(i, i + REPLAY_BUILD));
        for (const f of frames) {
          if (!(await this.drained()) || !live()) return;
          this.push(f);
        }
      }
      if (rows.length < REPLAY_PAGE) break;
      const last = rows[rows.length - 1];
      after = { xid: last.xid, seq: last.seq };
    }
    const waiting = held ?? [];
    held = null;
    for (const f of waiting) this.push(f);
  }

  /** During a replay: waits until the client has taken half its backlog; false if it never does. */
  private async drained(): Promise<boolean> {
    const until = Date.now() + REPLAY_STALL_MS;
    while (!this.closed && this.sink.backlog() > MAX_BACKLOG_BYTES / 2) {
      if (Date.now() > until) {
        this.close(1013, "The client is not reading; resume with since.");
        return false;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return !this.closed;
  }

  private push(f: StreamFrame): void {
    if (this.closed) return;
    this.sink.send(f);
    if (this.sink.backlog() > MAX_BACKLOG_BYTES) this.close(1013, "The client fell too far behind; reconnect and resubscribe with since.");
  }

  private close(code: number, reason: string): void {
    if (this.closed) return;
    this.dispose();
    this.sink.close(code, reason);
  }

  private stopLive(): void {
    if (this.tailSub) mailEventTail().detach(this.tailSub);
    this.tailSub = null;
    this.stopChanges?.();
    this.stopChanges = null;
  }
}
