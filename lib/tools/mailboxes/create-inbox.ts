import { z } from "zod";
import { createMailbox } from "@/lib/mail/mailboxes/create-mailbox";
import { displayNameField, mailboxStatusField, metadataField, usernameField } from "@/lib/mail/mailboxes/create-mailbox-fields";
import { inboxView } from "@/lib/mail/mailboxes/inbox-view";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { inboxOutput } from "@/lib/tools/mailboxes/inbox-fields";

export const createInbox = defineTool({
  name: "create_inbox",
  family: "mailboxes",
  scope: "inbox_create",
  description:
    "Creates an inbox (a new email address) in the project. `username` is the part before @ (lower case; random when omitted); `domain` is the instance's mail domain by default or a verified custom domain of the project. An address that is taken is CONFLICT. Pass `clientId` to make retries safe: the same clientId returns the inbox it created and creates nothing. Needs a key without a mailbox restriction.",
  input: z
    .object({
      username: usernameField.optional(),
      domain: z
        .string()
        .trim()
        .min(1)
        .max(253)
        .optional()
        .describe("The domain after @: the instance's mail domain (default) or a verified custom domain of this project."),
      displayName: displayNameField.optional(),
      clientId: z.string().trim().min(1).max(128).optional().describe("Your id for this create: repeating it returns the same inbox instead of a second one."),
      status: mailboxStatusField.optional(),
      metadata: metadataField.optional(),
    })
    .strict(),
  output: inboxOutput,
  annotations: { ...mailboxCreate, title: "Create an inbox" },
  rest: { method: "POST", path: "/inboxes" },
  example: {},
  handler: async (ctx, input) => {
    const { mailbox } = await createMailbox(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = mailbox.id;
    return inboxView(mailbox);
  },
});
