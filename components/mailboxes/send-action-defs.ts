import { z } from "zod";
import { pathText } from "@/lib/disk/path-rules";
import type { ActionContext, ActionLedger } from "@/lib/auth/owner-action";
import { sendPolicies } from "@/lib/db/schema/mail";
import { DRAFT_OPS, ownerDeleteDraft, ownerSendDraft, ownerUpdateDraft } from "@/lib/mail/drafts/owner-draft-changes";
import { ownerSaveDraft, ownerSend } from "@/lib/mail/drafts/owner-compose";
import { setSendPolicy } from "@/lib/mail/mailboxes/set-send-policy";
import { oneLine, plainAddress, utf8Max } from "@/lib/mail/outbound/address-rules";
import { BODY_MAX_BYTES, MAX_ATTACHMENTS, MAX_RECIPIENTS } from "@/lib/mail/outbound/limits";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { setSendPolicyRoute } from "@/lib/owner-api/send-policy";
import { SEND_SUBJECT_MAX_CHARS } from "@/lib/tools/mailboxes/send-fields";
import { toolOpOf } from "@/lib/tools/registry";

/**
 * The owner's sending actions as data (schema, work, ledger op), wrapped by app/(dashboard)/mail/send-actions.ts:
 * the send policy, compose (send, save draft, schedule) and the Drafts screen's changes. Approving and rejecting a
 * held draft is the Approvals screen's own decideAction, so both screens make one decision.
 */
interface Def<S extends z.ZodType, T> {
  schema: S;
  run: (ctx: ActionContext, input: z.output<S>) => Promise<T>;
  ledger: ActionLedger<z.output<S>>;
}
const def = <S extends z.ZodType, T>(d: Def<S, T>) => d;
const draftId = z.string().regex(/^drf_[A-Za-z0-9]{1,40}$/, "must be a draft id, `drf_…`");
/** The draft's version as the screen showed it: a change made since (an agent's update_draft) is CONFLICT. */
const version = z.number().int().min(1);
const addresses = z.array(plainAddress).max(MAX_RECIPIENTS);
const sendAt = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() > Date.now(), "must be in the future")
  .refine((d) => d.getTime() <= Date.now() + 90 * 24 * 3600_000, "must be within 90 days");

/** The mailbox settings' select; the owner REST route's op, so both read alike in the ledger. */
export const setSendPolicyDef = def({
  schema: z.object({ inboxId: z.string().min(1).max(320), sendPolicy: z.enum(sendPolicies) }),
  run: async (ctx, input) => {
    const row = await setSendPolicy(ctx.db, { actor: ctx.actor, inboxId: input.inboxId, sendPolicy: input.sendPolicy });
    ctx.subject = row.id;
    return { inboxId: row.id, sendPolicy: row.sendPolicy };
  },
  ledger: { op: routeOp(setSendPolicyRoute) },
});

const composeFields = z
  .object({
    inboxId: z.string().min(1).max(320),
    mode: z.enum(["new", "reply", "reply_all", "forward"]),
    messageId: z.string().min(1).max(1000).optional(),
    to: addresses,
    cc: addresses,
    bcc: addresses,
    subject: oneLine(SEND_SUBJECT_MAX_CHARS),
    text: utf8Max(BODY_MAX_BYTES, "text"),
    paths: z.array(pathText().min(1)).max(MAX_ATTACHMENTS),
  })
  .superRefine((v, ctx) => {
    const n = v.to.length + v.cc.length + v.bcc.length;
    if (n > MAX_RECIPIENTS) ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc` });
  });

/** Compose's Send: one message through the one send path (origin owner). */
export const composeSendDef = def({
  schema: composeFields.refine((v) => v.to.length + v.cc.length + v.bcc.length > 0, { path: ["to"], message: "add at least one recipient" }),
  run: async (ctx, input) => {
    const out = await ownerSend(ctx.db, { actor: ctx.actor, input });
    if ("held" in out) return { draftId: out.held.draftId, messageId: null };
    ctx.subject = out.sent.messageId;
    return { draftId: null, messageId: out.sent.messageId };
  },
  ledger: { op: toolOpOf("send_message") },
});

/** Compose's "Save draft" and "Schedule…" (with sendAt). */
export const composeDraftDef = def({
  schema: composeFields.and(z.object({ sendAt: sendAt.nullable() })),
  run: async (ctx, input) => {
    const draft = await ownerSaveDraft(ctx.db, { actor: ctx.actor, input, sendAt: input.sendAt });
    ctx.subject = draft.id;
    return { draftId: draft.id, sendAt: draft.sendAt?.toISOString() ?? null };
  },
  ledger: { op: DRAFT_OPS.create },
});

export const sendDraftNowDef = def({
  schema: z.object({ draftId, version }),
  run: async (ctx, input) => {
    ctx.subject = input.draftId;
    const out = await ownerSendDraft(ctx.db, { actor: ctx.actor, ...input });
    return "sent" in out ? { messageId: out.sent.messageId } : { messageId: null };
  },
  ledger: { op: DRAFT_OPS.send },
});

export const deleteDraftDef = def({
  schema: z.object({ draftId, version }),
  run: async (ctx, input) => {
    ctx.subject = input.draftId;
    return ownerDeleteDraft(ctx.db, { actor: ctx.actor, ...input });
  },
  ledger: { op: DRAFT_OPS.delete },
});

/** Edit (recipients, subject, text) and Reschedule (sendAt; null unschedules). */
export const updateDraftDef = def({
  schema: z.object({
    draftId,
    version,
    to: addresses.optional(),
    cc: addresses.optional(),
    bcc: addresses.optional(),
    subject: oneLine(SEND_SUBJECT_MAX_CHARS).optional(),
    text: utf8Max(BODY_MAX_BYTES, "text").optional(),
    sendAt: sendAt.nullable().optional(),
  }),
  run: async (ctx, { draftId: id, version: seen, ...patch }) => {
    ctx.subject = id;
    const row = await ownerUpdateDraft(ctx.db, { actor: ctx.actor, draftId: id, version: seen, patch });
    return { draftId: row.id, sendAt: row.sendAt?.toISOString() ?? null, version: row.version };
  },
  ledger: { op: DRAFT_OPS.update },
});
