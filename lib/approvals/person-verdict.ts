import { z } from "zod";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";

/** What a person can answer, from any channel. */
export const personVerdictInput = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("approve"), comment: z.string().max(2000).optional() }),
  z.object({ outcome: z.literal("deny"), comment: z.string().max(2000).optional() }),
  z.object({ outcome: z.literal("option"), option: z.string().min(1).max(40), comment: z.string().max(2000).optional() }),
  z.object({ outcome: z.literal("answer"), text: z.string().trim().min(1, "write an answer").max(4000), comment: z.string().max(2000).optional() }),
  z.object({ outcome: z.literal("needs_context"), comment: z.string().trim().min(1, "say what context is missing").max(2000) }),
]);
export type PersonVerdict = z.infer<typeof personVerdictInput>;

/** Which answers fit which request: questions are answered (option or text), the rest approved or denied. */
export function verdictProblem(r: ApprovalRequest, v: PersonVerdict): { field: string; message: string } | null {
  if (v.outcome === "needs_context") return null;
  if (r.kind === "question") {
    if (v.outcome === "approve" || v.outcome === "deny")
      return { field: "outcome", message: "a question is answered with an option or a text, not approved or denied" };
  } else if (v.outcome === "answer") {
    return { field: "outcome", message: "an approval is approved, denied or answered with one of its options" };
  }
  if (v.outcome === "option" && !r.options.includes(v.option)) {
    return { field: "option", message: r.options.length ? `must be one of: ${r.options.join(", ")}` : "this request has no options" };
  }
  return null;
}
