import { z } from "zod";
import { isProtectedLabel, LABEL_PATTERN, MAX_LABELS_PER_CALL, MUTABLE_SYSTEM_LABELS } from "@/lib/mail/labels/system-labels";

const shown = (v: unknown) => JSON.stringify(typeof v === "string" && v.length > 80 ? `${v.slice(0, 80)}…` : v);

/** One label an agent may set or clear: the error names the label itself, so the agent sees which one was refused. */
export const labelField = z
  .string()
  .regex(LABEL_PATTERN, {
    error: (iss) =>
      `${shown(iss.input)} is not a valid label: use 1 to 64 characters a-z, 0-9 and . _ : / - (lower case, no spaces), starting with a letter or digit`,
  })
  .refine((label) => !isProtectedLabel(label), {
    error: (iss) =>
      `${shown(iss.input)} is a system label: only ${MUTABLE_SYSTEM_LABELS.map((l) => `"${l}"`).join(", ")} and your own labels can be added or removed`,
  });

const labelList = (what: string) =>
  z
    .array(labelField)
    .max(MAX_LABELS_PER_CALL)
    .default([])
    .describe(`Labels to ${what}, at most ${MAX_LABELS_PER_CALL}: your own (lower case, e.g. \`follow-up\`) or \`unread\`. Other system labels are refused.`);

export const addLabelsField = labelList("add");
export const removeLabelsField = labelList("remove (a label also in addLabels is removed)");

export const labelsOutput = z.array(z.string()).describe("The labels now set, system labels included.");

export const attachmentIdField = z.string().trim().min(1).max(100).describe("The attachment: `att_…`, listed on its message by get_thread or get_message.");

/** At most 20 labels per call, added and removed together (each list alone is capped by its schema). */
export function checkLabelCount(v: { addLabels: string[]; removeLabels: string[] }, ctx: z.RefinementCtx) {
  const n = v.addLabels.length + v.removeLabels.length;
  if (n > MAX_LABELS_PER_CALL && v.addLabels.length <= MAX_LABELS_PER_CALL && v.removeLabels.length <= MAX_LABELS_PER_CALL) {
    ctx.addIssue({
      code: "custom",
      path: ["removeLabels"],
      message: `at most ${MAX_LABELS_PER_CALL} labels per call, added and removed together (${n} given)`,
    });
  }
}

/** `label` needs labels; the other actions refuse them, so a mistyped action never silently ignores them. */
export function checkBatchLabels(v: { action: string; addLabels: string[]; removeLabels: string[] }, ctx: z.RefinementCtx) {
  checkLabelCount(v, ctx);
  const given = v.addLabels.length + v.removeLabels.length > 0;
  if (v.action === "label" && !given) ctx.addIssue({ code: "custom", path: ["addLabels"], message: "action label needs addLabels or removeLabels" });
  // Named as given: a call that sent only removeLabels must not be told to fix addLabels.
  const field = v.addLabels.length > 0 ? "addLabels" : "removeLabels";
  if (v.action !== "label" && given) ctx.addIssue({ code: "custom", path: [field], message: `labels are only taken with action label, not ${v.action}` });
}
