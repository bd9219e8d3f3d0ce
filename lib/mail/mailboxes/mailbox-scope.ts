import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { and, eq, isNull } from "drizzle-orm";
import { mailboxes, type Mailbox } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import { liveMailboxByAddress, liveMailboxById } from "@/lib/mail/mailboxes/statements";
import { asciiAddress } from "@/lib/mail/domains/mail-domain-name";

/**
 * The one place a mailbox tool learns which mailboxes it may touch (design §2.6). A key restricted to one mailbox
 * sees only that one: any other, like one that does not exist or belongs to another project, is NOT_FOUND with
 * the same text, so a restricted key cannot learn which addresses exist.
 */

const notFound = (ref: string) => new AppError("NOT_FOUND", `Inbox ${ref} was not found.`, { fix: "Check the inbox id or address with list_inboxes." });

/** A live mailbox of the actor's project by id (`mbx_…`) or address (any case), within the key's restriction. */
export async function findMailbox(db: Executor, actor: Actor, ref: string): Promise<Mailbox> {
  const [row] = await (ref.includes("@") ? liveMailboxByAddress : liveMailboxById)(db, actor.projectId, ref.includes("@") ? asciiAddress(ref) : ref);
  if (!row || (actor.mailboxId && row.id !== actor.mailboxId)) throw notFound(ref);
  return row;
}

/**
 * Holds a mailbox found live until the caller's transaction ends (FOR SHARE), NOT_FOUND if a delete committed
 * meanwhile: what the caller writes for it then either waits for a delete_inbox under way to see it, or is refused.
 * For the rare writes a delete must find (a send held for approval); a plain send takes no lock, lest every send
 * from one mailbox queue on its row.
 */
export async function holdMailbox(db: Executor, mailbox: Mailbox): Promise<void> {
  const [row] = await db
    .select({ id: mailboxes.id })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, mailbox.projectId), eq(mailboxes.id, mailbox.id), isNull(mailboxes.deletedAt)))
    .for("share");
  if (!row) throw notFound(mailbox.address);
}

/**
 * Where a tool whose `inboxId` is optional looks: the named mailbox, else the key's own mailbox, else (null) the
 * whole project. Tools that cannot work project-wide pass `projectWide: false` and get a validation_error instead.
 */
export async function mailboxScope(
  db: Executor,
  actor: Actor,
  inboxId: string | undefined,
  opts: { projectWide?: boolean } = {},
): Promise<{ mailboxId: string | null }> {
  if (inboxId !== undefined) return { mailboxId: (await findMailbox(db, actor, inboxId)).id };
  if (actor.mailboxId) return { mailboxId: actor.mailboxId };
  if (opts.projectWide === false) {
    throw fieldError("inboxId", "is required", "Pass inboxId (an id from list_inboxes, or the address).");
  }
  return { mailboxId: null };
}

/** Actions over the whole project (create or delete a mailbox, the global lists) need a key without a restriction. */
export function requireUnrestricted(actor: Actor, action: string, fix = "Use a key without a mailbox restriction (API keys screen)."): void {
  if (!actor.mailboxId) return;
  throw new AppError("missing_permission", `This key is restricted to one mailbox and may not ${action}.`, { fix });
}
