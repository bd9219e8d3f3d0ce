import { z } from "zod";
import { getRequestStatus } from "@/lib/approvals/get-request-status";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { requestShape } from "@/lib/tools/approvals/request-shape";

export const requestStatus = defineTool({
  name: "request_status",
  family: "brynth",
  scope: "approvals",
  description:
    "Returns the current state of a request by `request_id`, without waiting. Use it to resume after `ask_approval`, `ask_human` or `policy_set` returned `pending`.",
  input: z
    .object({
      request_id: z
        .string()
        .regex(/^req_[A-Za-z0-9]{1,40}$/, "must be a request id, `req_…`")
        .describe("Request id, `req_…`."),
    })
    .strict(),
  output: requestShape,
  annotations: { ...readOnly, title: "Check a request" },
  rest: { method: "GET", path: "/requests/{request_id}" },
  handler: async (ctx, input) => {
    ctx.subject = input.request_id;
    return getRequestStatus(ctx.db, { actor: ctx.actor, requestId: input.request_id });
  },
});
