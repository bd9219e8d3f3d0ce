import { z } from "zod";
import { viewDraft } from "@/lib/mail/drafts/draft-view";
import { findDraft } from "@/lib/mail/drafts/find-draft";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { draftIdField, draftOutput } from "@/lib/tools/mailboxes/draft-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";

export const getDraft = defineTool({
  name: "get_draft",
  family: "mailboxes",
  scope: "draft_read",
  description:
    "Reads one draft in full: recipients, subject, text and html, attachment metadata, labels, and its send state: `send_status` (`scheduled`, `sending`, `failed`, `pending_approval`, `rejected`, or null for an ordinary draft), `send_at` and `send_reason`. A draft that was sent is gone (NOT_FOUND); its message is in the thread. Over MCP a result above about 19,000 bytes is shortened (`truncated: true`; the `fix` names the REST path).",
  input: z.object({ inboxId: inboxIdField, draftId: draftIdField }).strict(),
  output: budgetedOutput(draftOutput),
  annotations: { ...mailboxRead, title: "Get a draft" },
  rest: { method: "GET", path: "/inboxes/{inbox_id}/drafts/{draft_id}" },
  mcpBudget: {
    fix: (_input, out) => `GET /api/v1/inboxes/${out.inboxId}/drafts/${out.draftId} returns the draft in full (REST results are never shortened).`,
  },
  example: { inboxId: "{{inbox}}", draftId: "{{draft}}" },
  handler: async (ctx, input) => {
    const { draft } = await findDraft(ctx.db, ctx.actor, input.inboxId, input.draftId);
    ctx.subject = draft.id;
    return viewDraft(ctx.db, draft);
  },
});
