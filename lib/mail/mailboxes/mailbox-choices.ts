import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import { listMailboxes } from "@/lib/mail/mailboxes/list-mailboxes";
import { liveMailboxById } from "@/lib/mail/mailboxes/statements";

/** Mailboxes a screen's picker offers: the oldest this many. */
export const PICKER_MAILBOXES = 500;

type Choice = Pick<Mailbox, "id" | "address" | "displayName">;

/**
 * A mailbox picker's options: the oldest PICKER_MAILBOXES live mailboxes, with each of `wanted` (a chosen one, those a
 * webhook watches) first when it lies past them, read by id (it was "not found", or unticked and so dropped by an
 * edit, before). `more`: the project has mailboxes the list leaves out, so the screen lets the owner type an address.
 */
export async function pickerMailboxes(db: Executor, actor: Actor, wanted: readonly string[] = []): Promise<{ options: Choice[]; more: boolean }> {
  const read = await listMailboxes(db, { actor, limit: PICKER_MAILBOXES + 1, ascending: true, after: null });
  const listed: Choice[] = read.slice(0, PICKER_MAILBOXES);
  const missing = [...new Set(wanted)].filter((id) => !listed.some((m) => m.id === id));
  const found = (await Promise.all(missing.map(async (id) => (await liveMailboxById(db, actor.projectId, id))[0]))).filter((m): m is Mailbox => !!m);
  return { options: [...found, ...listed], more: read.length > PICKER_MAILBOXES };
}

/** The Lists screen's picker and its chosen mailbox (undefined: not one of the project's live mailboxes). */
export async function mailboxChoices(db: Executor, actor: Actor, chosenId: string | null): Promise<{ options: Choice[]; chosen: Choice | undefined }> {
  const { options } = await pickerMailboxes(db, actor, chosenId === null ? [] : [chosenId]);
  return { options, chosen: chosenId === null ? undefined : options.find((m) => m.id === chosenId) };
}
