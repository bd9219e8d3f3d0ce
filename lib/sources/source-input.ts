import { z } from "zod";
import { sourceTypes, verifications } from "@/lib/db/schema/events";
import { BRYNTH_SOURCE } from "@/lib/events/emit-event";
import { standardWebhooksKey } from "@/lib/sources/verify/standard-webhooks";
import { RedactedSecret, reveal } from "@/lib/sources/redacted-secret";

export const sourceName = z
  .string()
  .trim()
  .min(1, "name is required")
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, "use lowercase letters, digits, '.', '_' and '-', starting with a letter or digit")
  .refine((n) => n !== BRYNTH_SOURCE, "`brynth` is reserved for the events Brynth writes itself")
  .describe("Unique in the project, e.g. `stripe`.");

const headerName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name, e.g. x-signature")
  .transform((h) => h.toLowerCase());

export const secretField = z.string().min(8, "must be at least 8 characters").max(1000);

/** Checks that only make sense across fields (which fields a verification needs or forbids). */
export function checkSourceFields(
  input: { type: string; verification?: string; secret?: string | RedactedSecret; signature_header?: string },
  ctx: z.core.$RefinementCtx,
) {
  const v = { ...input, secret: reveal(input.secret) };
  const verification = v.verification ?? "none";
  if (v.type === "email") {
    for (const f of ["verification", "secret", "signature_header"] as const) {
      if (v[f] !== undefined) ctx.addIssue({ code: "custom", path: [f], message: "not used by email sources" });
    }
    return;
  }
  if (verification === "none" && v.secret !== undefined) {
    ctx.addIssue({ code: "custom", path: ["secret"], message: "not used with verification none; choose a verification or drop the secret" });
  }
  if (verification !== "none" && v.secret === undefined) {
    ctx.addIssue({ code: "custom", path: ["secret"], message: `required for verification ${verification}` });
  }
  if (verification === "standard_webhooks" && v.secret !== undefined && !standardWebhooksKey(v.secret)) {
    ctx.addIssue({ code: "custom", path: ["secret"], message: "a Standard Webhooks secret looks like whsec_<base64>" });
  }
  if (v.signature_header !== undefined && verification !== "hmac_sha256") {
    ctx.addIssue({ code: "custom", path: ["signature_header"], message: "only used with verification hmac_sha256" });
  }
}

export const sourceFields = {
  type: z.enum(sourceTypes).describe("`webhook` for an HTTP endpoint, `email` for the project address."),
  name: sourceName,
  verification: z
    .enum(verifications)
    .optional()
    .describe("Webhook signature check: `stripe`, `github`, `hmac_sha256`, `standard_webhooks` or `none` (default)."),
  secret: secretField.optional().describe("Signing secret from the provider. Required unless verification is `none`."),
  signature_header: headerName.optional().describe("Only for `hmac_sha256`: header carrying the signature, default `x-signature`."),
};

/** Dashboard-only extras: a delivery id header for deduplication and where the event type sits in the body. */
export const sourceExtras = {
  id_header: headerName.optional(),
  type_field: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "a dot path such as event.type")
    .optional(),
};
