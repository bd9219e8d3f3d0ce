import { releaseSlotToWait } from "@/lib/keys/call-slots";
import type { Actor } from "@/lib/actor";
import { env } from "@/lib/env";
import { countedSlots } from "@/lib/keys/counted-slots";

const slot = countedSlots("__brynthKeyWaits");

/**
 * Long waits (inbox_wait, and the approval waits of ask_approval, ask_human, policy_set, email_send and file_url)
 * one API key holds at once, on this instance. The per-minute call limit does not bound them: a call that waits
 * 120 s takes one token, so a key could hold thousands at once, each an open request with its arguments and
 * JSON-RPC id (up to MAX_BODY_BYTES) in memory and a check of the database whenever its project's events change.
 * In-process, like the call limit (call-rate-limit.ts): only authenticated keys are counted. Owners are not.
 *
 * Returns the release (call it once when the wait ends), or null when the key already holds KEY_MAX_WAITS.
 */
export function takeWaitSlot(actor: Pick<Actor, "type" | "keyId">): (() => void) | null {
  if (actor.type !== "key" || !actor.keyId) return () => {};
  const release = slot(actor.keyId, env().KEY_MAX_WAITS);
  // Waiting, the call holds no connection: its call slot serves the key's other calls (call-slots.ts).
  if (release) releaseSlotToWait();
  return release;
}
