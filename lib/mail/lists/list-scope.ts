import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { findMailbox, requireUnrestricted } from "@/lib/mail/mailboxes/mailbox-scope";

/**
 * Which list a call acts on: the named inbox's, or without `inboxId` the project's global list (design L2), which
 * a key restricted to one mailbox may not touch. Unlike the thread tools, a restricted key is not silently moved to
 * its own inbox: the global list is a different list, and acting on another than the one asked for would mislead.
 */
export async function listScope(db: Executor, actor: Actor, inboxId: string | undefined): Promise<{ mailboxId: string | null }> {
  if (inboxId !== undefined) return { mailboxId: (await findMailbox(db, actor, inboxId)).id };
  requireUnrestricted(actor, "use the project-wide (global) lists", "Pass inboxId (the inbox this key is restricted to) to use that inbox's lists.");
  return { mailboxId: null };
}
