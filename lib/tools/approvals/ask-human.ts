import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { askHuman as ask } from "@/lib/approvals/ask-human";
import { requestView } from "@/lib/approvals/request-view";
import { defineTool } from "@/lib/tools/define-tool";
import { requestShape } from "@/lib/tools/approvals/request-shape";
import { approversField, callbackUrlField, expiresInField, optionsField, stateRefField, waitSecondsField } from "@/lib/tools/approvals/approval-fields";

export const askHuman = defineTool({
  name: "ask_human",
  family: "brynth",
  scope: "approvals",
  description:
    'Asks a person a question through the project channels, with up to 5 `options` or as free text, and waits like `ask_approval`. Use it when nobody is watching: if the user is in this session, ask them there instead. The answer is in `decision` with `status: "answered"`. On `needs_context`: read `comment`, then ask a new, more self-contained question; do not repeat this one. `pending` means ask `request_status` later, `expired` means nobody answered.',
  input: z
    .object({
      question: z.string().trim().min(1).max(4000).describe("The question, self-contained: the person reads it away from this session, without its context."),
      options: optionsField,
      wait_seconds: waitSecondsField,
      expires_in: expiresInField,
      approvers: approversField,
      state_ref: stateRefField,
      callback_url: callbackUrlField,
    })
    .strict(),
  output: requestShape,
  annotations: { title: "Ask a person a question", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rest: { method: "POST", path: "/questions" },
  op: "ask.human",
  transaction: false,
  waits: true,
  example: { question: "Example question?", wait_seconds: 0 },
  handler: async (ctx, input) => {
    const row = await ask(await getDb(), {
      actor: ctx.actor,
      signal: ctx.signal,
      question: input.question,
      options: input.options,
      waitSeconds: input.wait_seconds,
      expiresInMs: input.expires_in,
      approvers: input.approvers,
      stateRef: input.state_ref,
      callbackUrl: input.callback_url,
    });
    ctx.subject = row.id;
    return requestView(row);
  },
});
