import type { Executor } from "@/lib/db/client";
import { resolveRecipient, type Recipient } from "@/lib/mail/inbound/resolve-recipient";

const TTL_MS = 5000;
const MAX = 10_000;
const g = globalThis as { __brynthRcptCache?: Map<string, { at: number; r: Recipient }> };

/**
 * RCPT lookups for the listener, with accepted mailboxes remembered for a few seconds: a sender delivering many
 * messages costs one query, not one per message. Refusals are never cached (a new mailbox works at once); a
 * mailbox deleted meanwhile may still be accepted at RCPT for up to 5 s, and storing then fails with 451.
 */
export async function cachedRecipient(db: Executor, address: string): Promise<Recipient> {
  const key = address.trim().toLowerCase();
  const cache = (g.__brynthRcptCache ??= new Map());
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.r;
  const r = await resolveRecipient(db, key);
  if (r.kind === "mailbox") {
    if (cache.size >= MAX) cache.clear();
    cache.set(key, { at: Date.now(), r });
  } else cache.delete(key);
  return r;
}
