import { z } from "zod";
import { outboundUrlProblem } from "@/lib/http/outbound-address";
import { parseExpiresIn } from "@/lib/approvals/expires-in";

/** The spec's shared parameters of ask_approval, ask_human and policy_set, described as the spec describes them. */
export const optionsField = z
  .array(z.string().trim().min(1, "an option cannot be empty").max(40, "each option is at most 40 characters"))
  .max(5, "at most 5 options")
  .refine((o) => new Set(o.map((x) => x.toLowerCase())).size === o.length, "options must differ from each other")
  .optional()
  .describe("Up to 5 choices of up to 40 characters, besides approve and deny.");

export const waitSecondsField = z.number().int().min(0).max(120).default(45).describe("Seconds to wait for the answer in this call, 0–120. Default 45.");

export const expiresInField = z
  .string()
  .default("24h")
  .transform((v, ctx) => {
    const ms = parseExpiresIn(v);
    if (typeof ms === "string") {
      ctx.addIssue({ code: "custom", message: ms });
      return z.NEVER;
    }
    return ms;
  })
  .describe("`<n>m`, `<n>h` or `<n>d`, from `1m` to `7d`. Default `24h`. Expired means not approved.");

export const approversField = z
  .array(z.string().regex(/^chn_[A-Za-z0-9]+$/, "must be a channel id, `chn_…` (see channel_list)"))
  .min(1)
  .max(20)
  .optional()
  .describe("Active channels to ask (`chn_…`, see `channel_list`). Default: every active channel.");

export const stateRefField = z.string().min(1).max(1024).optional().describe("Opaque reference to your saved state, returned with the answer.");

export const callbackUrlField = z
  .string()
  .max(2048)
  .superRefine((v, ctx) => {
    const problem = outboundUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  // Checked in superRefine, so the schema would not say it is a URL: clients validate by it.
  .meta({ format: "uri" })
  .optional()
  .describe("https URL on a public host (no private, loopback or link-local address) that receives the signed `request.resolved` event.");
