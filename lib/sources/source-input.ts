import { z } from "zod";
import { sourceTypes, verifications } from "@/lib/db/schema/events";
import { BRYNTH_SOURCE } from "@/lib/events/emit-event";
import { standardWebhooksKey } from "@/lib/sources/verify/standard-webhooks";
import { type RedactedSecret, reveal } from "@/lib/sources/redacted-secret";
import { AppError } from "@/lib/errors";

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

const SECRET_EDGE = "has a leading or trailing space or line break, which would never match the provider's signature; paste the secret without it";

/** Whitespace at either end (a newline copied with the secret, a stray space) that the provider never signs with. */
const secretHasEdgeSpace = (secret: string) => secret !== secret.trim();

export const secretField = z
  .string()
  .min(8, "must be at least 8 characters")
  .max(1000)
  .refine((s) => !secretHasEdgeSpace(s), SECRET_EDGE);

/** The same check for callers that skip the schema: a secret the provider never signs with is refused, not stored. */
export function assertSecretUsable(secret: string | undefined) {
  if (secret === undefined || !secretHasEdgeSpace(secret)) return;
  throw new AppError("validation_error", `secret: ${SECRET_EDGE}`, { details: [{ field: "secret", message: SECRET_EDGE }] });
}

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
    ctx.addIssue({ code: "custom", path: ["secret"], message: "a Standard Webhooks secret is base64, as whsec_<base64> or alone" });
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
