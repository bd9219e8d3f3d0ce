import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailMessages, type Mailbox } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { insertDraft } from "@/lib/mail/drafts/insert-draft";
import { scheduleDraft } from "@/lib/mail/drafts/schedule-draft";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { forwardRequest } from "@/lib/mail/send/forward-request";
import { checkDerivedRecipientCount } from "@/lib/mail/send/recipient-limit";
import { type DerivedSendInput, replyRequest } from "@/lib/mail/send/reply-request";
import { resolveSendAttachments } from "@/lib/mail/send/resolve-send-attachments";
import type { SendRequest } from "@/lib/mail/send/send-request";

export interface CreateDraftInput extends Omit<DerivedSendInput, "headers"> {
  inboxId: string;
  references?: string[];
  inReplyTo?: string;
  forwardOf?: string;
  sendAt?: string;
  clientId?: string;
}

/**
 * A new draft (create_draft, design §1.4): plain, a reply (`inReplyTo`: subject, recipients and threading derived
 * from the original) or a forward (`forwardOf`: quoted original, its attachments kept by blob). `sendAt` schedules
 * it. A `clientId` seen before in this inbox returns that draft and writes nothing (`replayed`).
 */
export async function createDraft(db: Executor, o: { actor: Actor; input: CreateDraftInput }): Promise<{ draft: MailDraft; replayed: boolean }> {
  const { actor, input } = o;
  const mailbox = await findMailbox(db, actor, input.inboxId);
  const seen = async () => {
    if (input.clientId === undefined) return undefined;
    const draft = await draftByClientId(db, actor.projectId, mailbox.id, input.clientId);
    return draft && mineOrRefused(draft, actor, input.clientId);
  };
  const before = await seen();
  if (before) return { draft: before, replayed: true };
  if (input.clientId !== undefined) await refuseSentClientId(db, actor.projectId, mailbox.id, input.clientId);
  const request = await draftSendRequest(db, actor, mailbox, input);
  const files = await resolveSendAttachments(db, actor, request.attachments, request.kept);
  try {
    // A savepoint: a concurrent create with the same clientId that commits first makes this insert a unique
    // violation, and the call then returns that draft instead of failing.
    const draft = await db.transaction(async (sp) => {
      let row = await insertDraft(sp, {
        actor,
        mailbox,
        request,
        files,
        sendAt: input.sendAt ? new Date(input.sendAt) : null,
        clientId: input.clientId ?? null,
      });
      // insertDraft takes References from a reply's thread; a plain draft keeps the ones the caller gave.
      if (request.kind === "new" && input.references?.length) {
        [row] = await sp
          .update(mailDrafts)
          .set({ references: input.references })
          .where(and(eq(mailDrafts.projectId, row.projectId), eq(mailDrafts.id, row.id)))
          .returning();
      }
      await scheduleDraft(sp, row);
      return row;
    });
    return { draft, replayed: false };
  } catch (err) {
    const raced = isUniqueViolation(err) ? await seen() : undefined;
    if (raced) return { draft: raced, replayed: true };
    throw err;
  }
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === "23505" || e.cause?.code === "23505";
};

/**
 * A replay answers the draft whole, so only to whoever created it: another key with the same clientId got another
 * key's draft, bodies and bcc included, with no draft_read (found by helper-109). Ids are unique per mailbox, so that
 * caller needs another one.
 */
function mineOrRefused(draft: MailDraft, actor: Actor, clientId: string): MailDraft {
  if (draft.keyId === actor.keyId) return draft;
  throw new AppError("CONFLICT", `clientId ${JSON.stringify(clientId)} names another caller's draft in this inbox.`, {
    fix: "Use a clientId of your own for a new draft.",
    details: [{ field: "clientId", message: "used by another caller in this inbox" }],
  });
}

/**
 * A sent draft is deleted (AgentMail), which freed its clientId: create_draft retried after a scheduled send made
 * a second draft, and the schedule sent the mail twice (found by helper-109). Its message keeps the id
 * (sendDraft), and the retry is told what became of the draft.
 */
async function refuseSentClientId(db: Executor, projectId: string, mailboxId: string, clientId: string) {
  const [sent] = await db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.mailboxId, mailboxId), eq(mailMessages.draftClientId, clientId)))
    .limit(1);
  if (sent) {
    throw new AppError("CONFLICT", `The draft with clientId ${JSON.stringify(clientId)} was sent already, as message ${sent.id}.`, {
      fix: `Read it with get_message ${sent.id}; use a new clientId for a new draft.`,
      details: [{ field: "clientId", message: `sent as message ${sent.id}` }],
    });
  }
}

async function draftByClientId(db: Executor, projectId: string, mailboxId: string, clientId: string): Promise<MailDraft | undefined> {
  const [row] = await db
    .select()
    .from(mailDrafts)
    .where(and(eq(mailDrafts.projectId, projectId), eq(mailDrafts.mailboxId, mailboxId), eq(mailDrafts.clientId, clientId)));
  return row;
}

/** The draft's content as a send: derived from the original for replies and forwards. */
async function draftSendRequest(db: Executor, actor: Actor, mailbox: Mailbox, input: CreateDraftInput): Promise<SendRequest> {
  const fields: DerivedSendInput = {
    to: input.to,
    cc: input.cc,
    bcc: input.bcc,
    replyTo: input.replyTo,
    subject: input.subject,
    text: input.text,
    html: input.html,
    labels: input.labels,
    attachments: input.attachments,
    replyAll: input.replyAll,
  };
  if (input.inReplyTo !== undefined) {
    const original = await findOriginal(db, actor, input.inboxId, input.inReplyTo, "inReplyTo");
    const r = await replyRequest(db, { actor, mailbox, original, input: fields });
    checkDerivedRecipientCount(r, input.replyAll);
    return input.references?.length && r.thread ? { ...r, thread: { ...r.thread, references: input.references } } : r;
  }
  if (input.forwardOf !== undefined) {
    const original = await findOriginal(db, actor, input.inboxId, input.forwardOf, "forwardOf");
    return forwardRequest(db, { actor, mailbox, original, input: fields });
  }
  return {
    kind: "new",
    to: input.to ?? [],
    cc: input.cc ?? [],
    bcc: input.bcc ?? [],
    replyTo: input.replyTo ?? [],
    subject: input.subject ?? "",
    text: input.text ?? null,
    html: input.html ?? null,
    labels: input.labels ?? [],
    headers: {},
    attachments: input.attachments ?? [],
    kept: [],
    thread: null,
    inReplyToMessageId: null,
    forwardOfMessageId: null,
    replyAll: false,
  };
}

/** The message a reply or forward draft is about; one that does not resolve is NOT_FOUND, never a silent new thread. */
async function findOriginal(db: Executor, actor: Actor, inboxId: string, ref: string, field: string) {
  try {
    return await findMessage(db, actor, inboxId, ref);
  } catch (err) {
    if (err instanceof AppError && err.code === "NOT_FOUND") {
      throw new AppError("NOT_FOUND", `${field}: message ${ref} was not found in this inbox.`, {
        fix: "Check the message id with list_messages for this inbox (a msg_… id or the RFC Message-ID).",
        details: { field },
      });
    }
    throw err;
  }
}
