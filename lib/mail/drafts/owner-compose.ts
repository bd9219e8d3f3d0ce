import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { MailDraft } from "@/lib/db/schema/mail-send";
import { fieldError } from "@/lib/disk/field-error";
import { insertDraft } from "@/lib/mail/drafts/insert-draft";
import { scheduleDraft } from "@/lib/mail/drafts/schedule-draft";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { forwardRequest } from "@/lib/mail/send/forward-request";
import { replyRequest } from "@/lib/mail/send/reply-request";
import { resolveSendAttachments } from "@/lib/mail/send/resolve-send-attachments";
import { type SendOutcome, sendFromMailbox } from "@/lib/mail/send/send-from-mailbox";
import type { SendRequest } from "@/lib/mail/send/send-request";

export type ComposeMode = "new" | "reply" | "reply_all" | "forward";

/** What the owner wrote in the compose form; files come as disk paths the browser uploaded first. */
export interface OwnerComposeInput {
  inboxId: string;
  mode: ComposeMode;
  /** The message answered or forwarded (reply, reply_all, forward). */
  messageId?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  paths: string[];
}

/**
 * The owner's compose as a send request: a new message, or a reply, reply-all or forward built by the same
 * replyRequest/forwardRequest the agents' tools use (threading, Re:/Fwd:, the original's attachments kept by blob).
 * The form shows the derived recipients and subject, so what the owner finally typed is what is sent.
 */
async function composeRequest(db: Executor, actor: Actor, input: OwnerComposeInput) {
  const mailbox = await findMailbox(db, actor, input.inboxId);
  const fields = {
    to: input.to,
    cc: input.cc,
    bcc: input.bcc,
    subject: input.subject,
    text: input.text,
    attachments: input.paths.map((path) => ({ path })),
  };
  if (input.mode === "new") {
    const request: SendRequest = {
      kind: "new",
      ...fields,
      replyTo: [],
      html: null,
      labels: [],
      headers: {},
      kept: [],
      thread: null,
      inReplyToMessageId: null,
      forwardOfMessageId: null,
      replyAll: false,
    };
    return { mailbox, request };
  }
  // By field, so the form and a script are told which (found by helper-101: it named none).
  if (!input.messageId) throw fieldError("messageId", "is required: a reply or forward names the message it answers", "Pass the message's id.");
  const original = await findMessage(db, actor, mailbox.id, input.messageId);
  const derive = input.mode === "forward" ? forwardRequest : replyRequest;
  const request = await derive(db, { actor, mailbox, original, input: { ...fields, replyAll: input.mode === "reply_all" } });
  return { mailbox, request };
}

/** The owner sends now: the one send path with origin `owner` (the owner set the policy, so no hold applies). */
export async function ownerSend(db: Executor, o: { actor: Actor; input: OwnerComposeInput }): Promise<SendOutcome> {
  const { mailbox, request } = await composeRequest(db, o.actor, o.input);
  return sendFromMailbox(db, { actor: o.actor, mailbox, request, origin: "owner", tool: "send_message" });
}

/**
 * "Save draft" and "Schedule…": a draft of the owner's (no key), scheduled when `sendAt` is given; the
 * mail.send_draft job sends it then as the owner's send (send-draft-job.ts, origin `owner`: no hold applies).
 */
export async function ownerSaveDraft(db: Executor, o: { actor: Actor; input: OwnerComposeInput; sendAt: Date | null }): Promise<MailDraft> {
  const { mailbox, request } = await composeRequest(db, o.actor, o.input);
  const files = await resolveSendAttachments(db, o.actor, request.attachments, request.kept);
  const draft = await insertDraft(db, { actor: o.actor, mailbox, request, files, sendAt: o.sendAt });
  await scheduleDraft(db, draft);
  return draft;
}
