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

export const threadIdField = z.string().min(1).max(100).describe("The thread: `thr_…` from list_threads or a message's `thread_id`.");
export const messageIdField = z.string().min(1).max(998).describe("The message: `msg_…` from list_messages, or its RFC Message-ID (`<…@…>`) within the inbox.");

export const attachmentIdField = z.string().min(1).max(100).describe("The attachment: `att_…`, listed on its message by get_thread or get_message.");
