import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import { listMailboxes } from "@/lib/mail/mailboxes/list-mailboxes";
import { liveMailboxById } from "@/lib/mail/mailboxes/statements";

/** Mailboxes a screen's picker offers: the oldest this many. */
export const PICKER_MAILBOXES = 500;

/**
 * A mailbox picker's options and the chosen mailbox (undefined: not one of the project's live mailboxes). The one
 * chosen is always among the options: past the first PICKER_MAILBOXES (a link from its own page) it is read by id,
 * where it was "not found" before.
 */
export async function mailboxChoices(
  db: Executor,
  actor: Actor,
  chosenId: string | null,
): Promise<{ options: Pick<Mailbox, "id" | "address">[]; chosen: Mailbox | undefined }> {
  const listed = await listMailboxes(db, { actor, limit: PICKER_MAILBOXES, ascending: true, after: null });
  if (chosenId === null) return { options: listed, chosen: undefined };
  const chosen = listed.find((m) => m.id === chosenId) ?? (await liveMailboxById(db, actor.projectId, chosenId))[0];
  return { options: chosen && !listed.some((m) => m.id === chosen.id) ? [chosen, ...listed] : listed, chosen };
}
