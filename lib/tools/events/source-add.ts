import { z } from "zod";
import { addSource } from "@/lib/sources/add-source";
import { RedactedSecret, reveal } from "@/lib/sources/redacted-secret";
import { checkSourceFields, sourceFields } from "@/lib/sources/source-input";
import { defineTool } from "@/lib/tools/define-tool";
import { writes } from "@/lib/tools/fields";
import { sourceShape } from "@/lib/tools/events/source-shape";

export const sourceAdd = defineTool({
  name: "source_add",
  family: "brynth",
  scope: "admin",
  description:
    'Adds a source that feeds the project inbox. Webhook: `{type: "webhook", name: "stripe", verification: "stripe", secret: "whsec_…"}` returns the `url` to paste in the provider. Email: `{type: "email", name: "email"}` returns the project `address`. Verification `github`, `hmac_sha256` (with optional `signature_header`) or `none` are also accepted.',
  input: z
    .object({
      ...sourceFields,
      // Wrapped so the ledger's digest of this call's input never covers the secret.
      secret: sourceFields.secret.transform((s) => (s === undefined ? undefined : new RedactedSecret(s))),
    })
    .strict()
    .superRefine(checkSourceFields),
  output: sourceShape,
  annotations: { ...writes, title: "Add an event source" },
  rest: { method: "POST", path: "/sources" },
  handler: async (ctx, input) => {
    const view = await addSource(ctx.db, { actor: ctx.actor, ...input, secret: reveal(input.secret) });
    ctx.subject = view.id;
    return view;
  },
});
