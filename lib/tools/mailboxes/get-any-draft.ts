import { z } from "zod";
import { findAnyDraft } from "@/lib/mail/drafts/find-any-draft";
import { viewDraft } from "@/lib/mail/drafts/draft-view";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { draftIdField, draftOutput } from "@/lib/tools/mailboxes/draft-fields";

/** REST-only (instance-wide draft reads): a draft by its id alone, in full. */
export const getAnyDraft = defineTool({
  name: "get_any_draft",
  family: "mailboxes",
  scope: "draft_read",
  transports: ["rest"],
  description: "Reads one draft by its id, whichever inbox (of those your key may use) holds it, in full.",
  input: z.object({ draftId: draftIdField }).strict(),
  output: draftOutput,
  annotations: { ...mailboxRead, title: "Get any draft" },
  rest: { method: "GET", path: "/drafts/{draft_id}" },
  example: { draftId: "{{draft}}" },
  handler: async (ctx, input) => {
    const draft = await findAnyDraft(ctx.db, ctx.actor, input.draftId);
    ctx.subject = draft.id;
    return viewDraft(ctx.db, draft);
  },
});
