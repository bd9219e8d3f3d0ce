import type { ApprovalRequest } from "@/lib/db/schema/approvals";

/**
 * What an option's button says before the agent's words. Choosing an option of an approval is a go-ahead with that
 * change (`modified`), whatever the option says: an agent's option "Deny" sat beside the real Deny and approved
 * (found by helper-106). A question's options are its answers, shown as they are.
 */
export const optionPrefix = (r: Pick<ApprovalRequest, "kind">) => (r.kind === "question" ? "" : "Approve with: ");
