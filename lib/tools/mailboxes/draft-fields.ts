import { z } from "zod";
import { plainAddress, SAFE_ID, utf8Max } from "@/lib/mail/outbound/address-rules";
import { BODY_MAX_BYTES, MAX_RECIPIENTS } from "@/lib/mail/outbound/limits";
import { subjectField } from "@/lib/tools/mailboxes/send-fields";

/** How far ahead a draft may be scheduled (design §1.9: the spec leaves it open). */
export const SEND_AT_MAX_DAYS = 90;

export const draftIdField = z.string().min(1).max(100).describe("The draft: `drf_…`, from create_draft or list_drafts.");

/**
 * When a draft goes out: an ISO 8601 timestamp with Z or an offset, in the future and at most 90 days ahead. Words
 * like "tomorrow" are refused: the model must say the time it means.
 */
export const sendAtField = z
  .string()
  .max(64)
  .superRefine((v, ctx) => {
    if (!z.iso.datetime({ offset: true }).safeParse(v).success) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 timestamp with Z or an offset, e.g. 2026-09-01T12:00:00Z" });
      return;
    }
    const at = Date.parse(v);
    if (at <= Date.now()) ctx.addIssue({ code: "custom", message: "must be in the future" });
    else if (at > Date.now() + SEND_AT_MAX_DAYS * 86_400_000) ctx.addIssue({ code: "custom", message: `must be at most ${SEND_AT_MAX_DAYS} days ahead` });
  })
  // Checked in superRefine (its own messages), so the schema would not say it is a date-time: clients validate by it.
  .meta({ format: "date-time" })
  .describe(
    `Send the draft at this time (ISO 8601, e.g. 2026-09-01T12:00:00Z), in the future and at most ${SEND_AT_MAX_DAYS} days ahead; adds the \`scheduled\` label.`,
  );

/**
 * One Message-ID of a References list, stored as the mail store keeps ids (without angle brackets): the composer
 * writes only ids of this shape, so anything else (a space, a CR/LF, `>` inside) would vanish from the sent mail.
 */
export const messageIdRefField = z
  .string()
  .trim()
  .overwrite((v) => v.replace(/^<(.*)>$/, "$1"))
  .regex(SAFE_ID, "must be a Message-ID like <id@example.com>: visible ASCII, without spaces or angle brackets inside, up to 250 characters");

const addressList = (what: string) => z.array(plainAddress).max(MAX_RECIPIENTS).describe(`${what}: plain addresses \`local@domain\`.`);

/** The fields a draft's content is made of; update_draft takes each as nullable (null or [] clears it). */
export const draftContentFields = {
  to: addressList("Recipients"),
  cc: addressList("Copy recipients"),
  bcc: addressList("Blind copies (envelope only)"),
  replyTo: z.array(plainAddress).max(10).describe("Reply-To addresses, up to 10."),
  subject: subjectField,
  text: utf8Max(BODY_MAX_BYTES, "text").describe("The plain-text body, up to 256 KB."),
  html: utf8Max(BODY_MAX_BYTES, "html").describe("An HTML body, up to 256 KB."),
};

export const draftAttachmentOutput = z.object({
  attachmentId: z.string().describe("`att_…`: REST downloads it from /inboxes/{inbox_id}/drafts/{draft_id}/attachments/{attachment_id}."),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});

export const draftOutput = z.object({
  draftId: z.string(),
  inboxId: z.string(),
  threadId: z.string().nullable().describe("The thread a reply draft joins; null for new and forward drafts."),
  kind: z.enum(["new", "reply", "forward"]),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  replyTo: z.array(z.string()),
  subject: z.string().nullable(),
  text: z.string().nullable(),
  html: z.string().nullable(),
  labels: z.array(z.string()),
  attachments: z.array(draftAttachmentOutput),
  inReplyTo: z.string().nullable().describe("The Message-ID a reply draft answers."),
  references: z.array(z.string()),
  sendAt: z.string().nullable(),
  sendStatus: z
    .enum(["scheduled", "sending", "failed", "pending_approval", "rejected"])
    .nullable()
    .describe("Null for an ordinary draft; `failed` and `rejected` come with `send_reason`."),
  sendReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DraftOutput = z.input<typeof draftOutput>;

export const draftPage = z.object({
  count: z.number().int(),
  limit: z.number().int(),
  nextPageToken: z.string().nullable(),
  drafts: z.array(draftOutput),
});
