import { z } from "zod";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { storableString } from "@/lib/db/storable";

/**
 * Text a person typed, which the decision stores as is. The emailed link's form and Telegram replies do not pass
 * through the tool pipeline that refuses NUL characters, so this schema refuses them itself, naming the field:
 * otherwise the decision's UPDATE fails inside the database and the person gets a 500.
 */
const typed = storableString;

const comment = typed().max(2000);

const verdicts = {
  approve: z.object({ outcome: z.literal("approve"), comment: comment.optional() }),
  deny: z.object({ outcome: z.literal("deny"), comment: comment.optional() }),
  option: z.object({ outcome: z.literal("option"), option: typed().min(1).max(40), comment: comment.optional() }),
  answer: z.object({ outcome: z.literal("answer"), text: typed().trim().min(1, "write an answer").max(4000), comment: comment.optional() }),
  needs_context: z.object({ outcome: z.literal("needs_context"), comment: typed().trim().min(1, "say what context is missing").max(2000) }),
};

/** What a person can answer, from any channel (the emailed form sends every field, the outcome's own are read). */
export const personVerdictInput = z.discriminatedUnion("outcome", [verdicts.approve, verdicts.deny, verdicts.option, verdicts.answer, verdicts.needs_context]);

/**
 * The same from a script (owner REST): each outcome takes only its own fields, so `{outcome: "approve", text: "only
 * up to 50 EUR"}` is refused naming `text` rather than approved with the condition dropped.
 */
export const scriptedVerdictInput = z.discriminatedUnion("outcome", [
  verdicts.approve.strict(),
  verdicts.deny.strict(),
  verdicts.option.strict(),
  verdicts.answer.strict(),
  verdicts.needs_context.strict(),
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
