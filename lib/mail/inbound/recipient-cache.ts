import type { Executor } from "@/lib/db/client";
import { notifiedCache } from "@/lib/db/notified-cache";
import { asciiAddress } from "@/lib/mail/domains/mail-domain-name";
import { resolveRecipient, type Recipient } from "@/lib/mail/inbound/resolve-recipient";

/** Accepted RCPT addresses; emptied on every instance when a mailbox is disabled or deleted, or a source removed. */
export const recipientCache = notifiedCache<Recipient>("brynth_mail_recipients", { maxAgeMs: 5000 });

/**
 * RCPT lookups for the listener, with accepted mailboxes remembered for a few seconds: a sender delivering many
 * messages costs one query, not one per message. Refusals are never cached (a new mailbox works at once), and a
 * change that could turn an acceptance into a refusal calls forgetRecipients, so the next RCPT reads it.
 */
export async function cachedRecipient(db: Executor, address: string): Promise<Recipient> {
  // Keyed by the stored spelling: a key as written let every spelling of one address (case, Unicode or xn--, soft
  // hyphens IDNA drops) miss the cache and cost a query (found by helper-114).
  const key = asciiAddress(address);
  const hit = recipientCache.get(key);
  if (hit) return hit;
  const epoch = recipientCache.epoch();
  const r = await resolveRecipient(db, key);
  if (r.kind === "mailbox") recipientCache.set(epoch, key, r);
  return r;
}

/** Given the transaction that disables or deletes a mailbox or removes a source: every listener forgets on commit. */
export const forgetRecipients = (db: Executor): void => recipientCache.invalidate(db);
