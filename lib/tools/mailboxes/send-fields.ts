import type { Scope } from "@/lib/keys/scopes";
import { z } from "zod";
import { oneLine, plainAddress, utf8Max } from "@/lib/mail/outbound/address-rules";
import { ATTACHMENTS_MAX_BYTES, BODY_MAX_BYTES, MAX_ATTACHMENTS, MAX_RECIPIENTS } from "@/lib/mail/outbound/limits";
import { attachmentInput, base64Bytes } from "@/lib/mail/send/attachment-input";
import { customHeadersField } from "@/lib/mail/send/custom-headers";
import { labelField } from "@/lib/tools/mailboxes/label-fields";

/** RFC 5322's line limit: a subject is one header line. */
export const SEND_SUBJECT_MAX_CHARS = 998;
const MAX_SEND_LABELS = 20;

const addressList = (what: string) =>
  z
    .array(plainAddress)
    .max(MAX_RECIPIENTS)
    .describe(`${what}: plain addresses \`local@domain\` (no display names, one address per item); at most ${MAX_RECIPIENTS} across to, cc and bcc.`);

export const attachmentsField = z
  .array(attachmentInput)
  .max(MAX_ATTACHMENTS)
  .superRefine((list, ctx) => {
    const inline = list.reduce((n, a) => n + (a.content ? base64Bytes(a.content) : 0), 0);
    if (inline > ATTACHMENTS_MAX_BYTES) ctx.addIssue({ code: "custom", message: `total ${inline} bytes, more than the 10 MB allowed per message` });
  })
  .describe(`Up to ${MAX_ATTACHMENTS} files, 10 MB in total: \`{filename, contentType, content}\` (base64) or \`{path}\` (needs the \`disk\` scope).`);

/**
 * The scope a send's attachments need beyond the tool's own: one by `path` reads the project disk (or an inbound
 * event's file) as file_get does, so it needs `disk`. Without it a key with no disk access, or one kept to a mailbox,
 * could read any file of the project by mailing it to itself.
 */
export const attachmentScopes = (attachments: readonly { path?: string }[] | null | undefined): Scope[] =>
  attachments?.some((a) => a.path !== undefined) ? ["disk"] : [];

/** The content fields every send takes (send_message, reply_to_message, forward_message; drafts reuse them). */
export const sendContentFields = {
  to: addressList("Recipients").optional(),
  cc: addressList("Copy recipients").optional(),
  bcc: addressList("Blind copies, in the envelope only, never in a header").optional(),
  replyTo: z.array(plainAddress).max(10).optional().describe("Where replies should go (Reply-To), up to 10 plain addresses."),
  text: utf8Max(BODY_MAX_BYTES, "text").optional().describe("The plain-text body, up to 256 KB."),
  html: utf8Max(BODY_MAX_BYTES, "html").optional().describe("An HTML body, up to 256 KB."),
  labels: z.array(labelField).max(MAX_SEND_LABELS).optional().describe("Your own labels for the sent message."),
  attachments: attachmentsField.optional(),
  headers: customHeadersField.optional(),
};

export const subjectField = oneLine(SEND_SUBJECT_MAX_CHARS).describe("One line, up to 998 characters.");

export const idempotencyKeyField = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, "must be visible ASCII without spaces")
  .optional()
  .describe("Retrying with the same key within 24 hours returns the first result and sends nothing (REST: Idempotency-Key).");

type Recipients = { to?: string[]; cc?: string[]; bcc?: string[] };

/** At most 50 recipients across to, cc and bcc; named on `to`, the field a caller fixes first. */
export function checkRecipientCount(v: Recipients, ctx: z.RefinementCtx, opts: { required: boolean }) {
  const n = (v.to?.length ?? 0) + (v.cc?.length ?? 0) + (v.bcc?.length ?? 0);
  if (opts.required && n === 0) ctx.addIssue({ code: "custom", path: ["to"], message: "give at least one recipient in to, cc or bcc" });
  if (n > MAX_RECIPIENTS) ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (${n} given)` });
}

/** A send needs a body: text, html or both. */
export function checkBody(v: { text?: string; html?: string }, ctx: z.RefinementCtx) {
  if (v.text === undefined && v.html === undefined) ctx.addIssue({ code: "custom", path: ["text"], message: "give text, html or both" });
}

/** What every send tool returns (the mailbox spec: `{message_id, thread_id, send_status}`). */
export const sendOutput = z.object({
  messageId: z.string().describe("`msg_…`"),
  threadId: z.string(),
  sendStatus: z.string().describe("`queued` at first; get_message shows `sent`, `failed`, `bounced` or `send_unknown` later."),
});
