import type { Mailbox } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";

/**
 * The mailbox's own say over a send, before anything is read or written: a disabled mailbox sends nothing, a
 * `read_only` one nothing an agent asks for (the owner set the policy, so the owner's own sends pass). Every sender
 * from a mailbox asks it: the mailbox send tools (sendFromMailbox) and email_send from the project address.
 */
export function checkMailboxSends(mailbox: Mailbox, o: { tool: string; byAgent: boolean }): void {
  if (mailbox.status !== "active") {
    throw new AppError("CONFLICT", `Inbox ${mailbox.address} is disabled: it sends nothing.`, { fix: "Enable it first (update_inbox with status active)." });
  }
  if (o.byAgent && mailbox.sendPolicy === "read_only") {
    throw new AppError("missing_permission", `Inbox ${mailbox.address} is read-only: ${o.tool} may not send from it.`, {
      fix: "This mailbox is read-only (owner setting). Tell the human if the mail must go out; do not retry.",
    });
  }
}
