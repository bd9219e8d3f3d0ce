import { z } from "zod";
import { verifyLedger } from "@/lib/ledger/verify-ledger";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";

export const ledgerVerify = defineTool({
  name: "ledger_verify",
  family: "brynth",
  scope: "ledger:read",
  description: "Recomputes the hash chain and returns `ok` or the first inconsistent `seq`. Use when asked to prove the record was not altered.",
  input: z
    .object({
      from_seq: z.number().int().min(1).optional().describe("First seq to check, default 1."),
      to_seq: z.number().int().min(1).optional().describe("Last seq to check, default the latest."),
    })
    .strict(),
  output: z.object({
    ok: z.boolean(),
    from_seq: z.number().int(),
    to_seq: z.number().int(),
    checked: z.number().int(),
    first_inconsistent_seq: z.number().int().nullable(),
    reason: z.string().nullable(),
  }),
  annotations: { ...readOnly, title: "Verify the ledger chain" },
  // Reads seal pending entries first on their own connection: no transaction may be open around them.
  transaction: false,
  example: {},
  rest: { method: "GET", path: "/ledger/verify" },
  handler: (ctx, input) => verifyLedger(ctx.db, { actor: ctx.actor, fromSeq: input.from_seq, toSeq: input.to_seq }),
});
