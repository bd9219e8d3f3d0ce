import type { Actor } from "@/lib/actor";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { countedSlots } from "@/lib/keys/counted-slots";

/** A slot frees only when one of the key's streams closes, which nobody can foretell: a pause worth retrying after. */
const RETRY_AFTER_SECONDS = 30;

const slot = countedSlots("__brynthStreamSlots");

/**
 * Live streams (WebSocket and SSE, mail and approvals) open at once per API key, on this instance. Each one holds a
 * socket (a file descriptor), a session and a place in every fan-out of its project's events; without a cap one key
 * could open thousands and run the process out of descriptors, or make each event's delivery cost thousands of
 * sends. Over STREAM_MAX_PER_KEY the stream is refused with 429 and Retry-After before it opens. In-process, like
 * the per-key call limit (call-rate-limit.ts): only authenticated keys are counted, so the map is bounded by the
 * keys that have a stream open. Owners are not counted: a dashboard tab holds a stream each.
 *
 * Returns the release, to be called once when the stream ends.
 */
export function takeStreamSlot(actor: Actor): () => void {
  if (actor.type !== "key") return () => {};
  const limit = env().STREAM_MAX_PER_KEY;
  const release = slot(actor.keyId ?? actor.id ?? "", limit);
  if (!release) {
    throw new AppError("rate_limited", `This key already has ${limit} live streams open, the most it may hold at once.`, {
      fix: `Close a stream this key holds (one stream can follow every inbox, with event_changes), or retry in ${RETRY_AFTER_SECONDS} s.`,
      details: { retry_after_seconds: RETRY_AFTER_SECONDS },
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  }
  return release;
}
