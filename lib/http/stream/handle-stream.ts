import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { streamActor } from "@/lib/http/stream/authorize-stream";
import type { StreamActor } from "@/lib/auth/credential-ends";
import { sseFrames } from "@/lib/http/stream/sse-response";
import { errorFrame, type StreamFrame } from "@/lib/http/stream/stream-frame";
import { StreamSession } from "@/lib/http/stream/stream-session";
import { takeStreamSlot } from "@/lib/http/stream/stream-slots";
import { queryInput, resolveSubscription, type Subscription } from "@/lib/http/stream/subscription";

export const STREAM_PATH = "/api/v1/stream";

/**
 * `GET /api/v1/stream` as Server-Sent Events, for EventSource and curl: the WebSocket protocol's frames, one SSE
 * message each (`event:` the frame type, `data:` the frame), with the subscription in the query (`inbox_ids`,
 * `event_types`, `since`, `event_changes`). Mail events carry `id:`, so a reconnecting EventSource resumes after the
 * last one it saw through Last-Event-ID. A bad subscription is refused with its HTTP status before the stream starts.
 */
export async function handleStream(req: ApiRequest): Promise<Response> {
  try {
    const actor = await streamActor(req, ["message_read", "inbox:read"], "the live stream");
    const release = takeStreamSlot(actor);
    try {
      return await openStream(req, actor, release);
    } catch (err) {
      release();
      throw err;
    }
  } catch (err) {
    return errorResponse(err);
  }
}

/** The stream of an authenticated client: `release` gives its slot (stream-slots.ts) back when it ends. */
async function openStream(req: ApiRequest, actor: StreamActor, release: () => void): Promise<Response> {
  const input = queryInput(new URL(req.url));
  // A reconnecting EventSource sends the last id it saw: that is where it resumes, whatever `since` its URL still
  // carries (taken again, it replayed from there on every reconnect, each time repeating what had been seen).
  const resume = req.headers.get("last-event-id");
  const db = await getDb();
  let sub: Subscription;
  let warning: StreamFrame | null = null;
  try {
    sub = await resolveSubscription(db, actor, resume ? { ...input, since: resume } : input);
  } catch (err) {
    // EventSource resends the last id on every reconnect and gives up for good on an error status: an id that
    // can no longer be replayed (older than 7 days) is said in an error frame, and the stream goes on from now.
    if (!resume || !(err instanceof AppError) || !err.message.startsWith("since:")) throw err;
    sub = await resolveSubscription(db, actor, { ...input, since: undefined });
    warning = errorFrame(err.code, `Last-Event-ID ${err.message}; following events from now on.`, err.fix);
  }
  return sseFrames(req.signal, (sink) => {
    const session = new StreamSession(actor, sink);
    const stop = () => {
      session.dispose();
      release();
    };
    return new Promise((resolve) => {
      const subscribed = () => {
        if (warning) sink.send(warning);
        resolve(stop);
      };
      session.start(sub, subscribed).finally(() => resolve(stop));
    });
  });
}
