import { z } from "zod";
import { createLink } from "@/lib/disk/create-link";
import { decideFileUrl } from "@/lib/disk/file-url-policy";
import { consumeApproval } from "@/lib/approvals/consume-approval";
import { defineTool } from "@/lib/tools/define-tool";
import { expiresInField, pathField } from "@/lib/tools/disk/disk-fields";

export const fileUrl = defineTool({
  name: "file_url",
  family: "brynth",
  scope: "disk",
  description:
    "Creates a public download link for a file of the project disk (by `path` or `disk://` reference) or for an inbound email attachment (`evt_…/name`). `expires_in` is in seconds, 60 to 604800 (7 days), default 3600. The project policy decides (tool `file_url`, risk `medium`): `deny` answers `POLICY_DENIED`; `require_approval` asks a person and waits up to `wait_seconds` (0 to 120, default 45). With a link it returns `{url, expires_at, link_id}`, otherwise `{status, request_id, comment}`. While `pending`, call again with the same `path` and `expires_in` and `approval` set to `request_id`: it answers `pending` until the person decides, then gives the link, one per approval, with the same key, within 24 hours of the decision. Anyone holding the URL can download the file until it expires, without a key. Replacing or deleting the file, or revoking the key that asked, revokes the link. Each download counts toward the project's 5 GB a month.",
  input: z
    .object({
      path: pathField,
      expires_in: expiresInField,
      approval: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe(
          "The `request_id` of an approved `file_url` request, to get its link: same key, `path` and `expires_in` as the call that asked, within 24 hours of the decision. Each approval gives one link.",
        ),
      wait_seconds: z
        .number()
        .int()
        .min(0)
        .max(120)
        .default(45)
        .describe("When the policy asks a person: seconds to wait for the decision, 0 to 120. Default 45."),
    })
    .strict(),
  output: z.object({
    url: z.string().optional(),
    expires_at: z.string().optional(),
    link_id: z.string().optional(),
    status: z.enum(["pending", "cancelled"]).optional(),
    request_id: z.string().optional(),
    comment: z.string().nullable().optional(),
  }),
  annotations: { title: "Make a file link", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  rest: { method: "POST", path: "/file-urls" },
  // The policy may wait for a person: no transaction is held meanwhile; the link is written in its own.
  transaction: false,
  waits: true,
  handler: async (ctx, input) => {
    ctx.subject = input.path;
    const decision = await decideFileUrl(ctx.db, {
      actor: ctx.actor,
      path: input.path,
      expiresIn: input.expires_in,
      approval: input.approval,
      waitSeconds: input.wait_seconds,
      signal: ctx.signal,
    });
    if (decision.outcome !== "allow") {
      return { status: decision.outcome, request_id: decision.requestId, comment: decision.comment };
    }
    const link = await ctx.db.transaction(async (tx) => {
      // One link per approval: the approval is used up in the link's own transaction.
      if (decision.consume) await consumeApproval(tx, { projectId: ctx.actor.projectId, requestId: decision.consume });
      return createLink(tx, { actor: ctx.actor, path: input.path, expiresIn: input.expires_in, fileId: decision.fileId });
    });
    ctx.subject = link.link_id;
    return link;
  },
});
