import { z } from "zod";
import { requestKinds, requestStatuses } from "@/lib/db/schema/approvals";

/** What ask_approval, ask_human, policy_set and request_status return. */
export const requestShape = z.object({
  request_id: z.string(),
  kind: z.enum(requestKinds),
  status: z.enum(requestStatuses),
  decision: z.string().nullable().describe("The chosen option (`modified`, `answered`) or the free-text answer."),
  comment: z.string().nullable(),
  decided_by: z.string().nullable().describe("`policy:<rule>`, `owner:<email>` or `channel:<label>`."),
  decided_at: z.string().nullable(),
  expires_at: z.string(),
  state_ref: z.string().nullable(),
  hint: z.string().optional(),
  version: z.number().int().nullable().optional().describe("policy_set: the policy version once approved."),
});
