import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import { liveMailboxByAddress, liveMailboxById } from "@/lib/mail/mailboxes/statements";
import { asciiAddress } from "@/lib/mail/domains/mail-domain-name";

/**
 * The mailboxes a webhook watches, as ids (design §2.6): each named one must be a live mailbox of the project,
 * else a validation_error naming its place in `request.inbox_ids`. A key restricted to one mailbox always gets
 * exactly that one, and naming any other is missing_permission; so does a webhook the owner edits whose creator is
 * restricted (`creatorMailbox`). Duplicates collapse.
 */
export async function webhookInboxIds(
  db: Executor,
  actor: Actor,
  refs: readonly string[] | undefined,
  creatorMailbox: string | null = null,
): Promise<string[]> {
  const own = actor.mailboxId ?? creatorMailbox;
  const ids: string[] = [];
  for (const [i, ref] of (refs ?? []).entries()) {
    const [row] = await (ref.includes("@") ? liveMailboxByAddress : liveMailboxById)(db, actor.projectId, ref.includes("@") ? asciiAddress(ref) : ref);
    if (own && row?.id !== own) {
      const who = actor.mailboxId ? "This key is" : "The webhook's key is";
      throw new AppError("missing_permission", `${who} restricted to one inbox, so the webhook may not watch ${ref}.`, {
        fix: "Omit inbox_ids (the key's own inbox is used), or use a key without a mailbox restriction.",
      });
    }
    if (!row) throw fieldError(`request.inbox_ids.${i}`, `${ref} is not an inbox of this project`, "Use ids or addresses from list_inboxes.");
    if (!ids.includes(row.id)) ids.push(row.id);
  }
  return own ? [own] : ids;
}
