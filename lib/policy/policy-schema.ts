import { z } from "zod";
import { riskLevels } from "@/lib/db/schema/approvals";
import { type GatedTool, gatedTools } from "@/lib/policy/gated-tools";

export const effects = ["allow", "deny", "require_approval", "auto_approve", "auto_approve_notify"] as const;
export type Effect = (typeof effects)[number];
/**
 * The tools whose calls the policy decides. The four mailbox send tools are held as drafts for approval (design
 * §1.9 6): a rule can add a hold to a mailbox, never lift its own send policy.
 */
export { gatedTools, type GatedTool } from "@/lib/policy/gated-tools";

export const MAX_RULES = 100;

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(50)]);
const actionPattern = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[^*]*\*?$/, "a `*` is allowed only at the end, as a prefix match");
const domain = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/i, "must be a domain such as `example.com` or `*.example.com`")
  .transform((d) => d.toLowerCase());

/**
 * One rule. All its conditions must hold; a rule without conditions matches everything. Rules are tried in order and
 * the first that matches decides.
 */
export const ruleSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, "1 to 64 letters, digits, `_`, `.`, `:` or `-`, starting with a letter or digit"),
    description: z.string().max(500).optional(),
    effect: z.enum(effects),
    /** ask_approval's `action`, exactly or as a prefix ending in `*` (tool calls carry their tool name as action). */
    action: oneOrMany(actionPattern).optional(),
    tool: oneOrMany(z.enum(gatedTools)).optional(),
    risk: oneOrMany(z.enum(riskLevels)).optional(),
    amount_lte: z.number().finite().optional(),
    amount_gt: z.number().finite().optional(),
    /** email_send and the mailbox send tools: every recipient's domain is one of these (`*.example.com` also covers subdomains). */
    domains: z.array(domain).min(1).max(100).optional(),
    /** email_send: at least one recipient's domain is one of these. */
    domains_any: z.array(domain).min(1).max(100).optional(),
    /** Channels (`chn_…`) asked or told under this rule instead of the request's. */
    approvers: z
      .array(z.string().regex(/^chn_[A-Za-z0-9]+$/, "must be a channel id, `chn_…`"))
      .min(1)
      .max(20)
      .optional(),
  })
  .strict();
export type Rule = z.infer<typeof ruleSchema>;

export const policySchema = z.object({ rules: z.array(z.unknown()).max(MAX_RULES) }).strict();
export interface Policy {
  rules: Rule[];
}

/** The facts a rule is matched against. */
export interface PolicySubject {
  action: string | null;
  tool: GatedTool | null;
  risk: (typeof riskLevels)[number] | null;
  amount: number | null;
  /** email_send recipients' domains, lower case. */
  domains: string[] | null;
}

export const POLICY_DESCRIPTION =
  'The policy as `{rules: [...]}`, tried in order; the first rule whose conditions all hold decides. A rule: `id` (required, e.g. `small-refunds`), `effect` (`allow`, `deny`, `require_approval`, `auto_approve`, `auto_approve_notify`), optional conditions `action` (exact or prefix ending in `*`, or a list), `tool` (`email_send`, `file_url`, `send_message`, `reply_to_message`, `forward_message`, `send_draft`), `risk` (`low`/`medium`/`high` or a list), `amount_lte`, `amount_gt`, `domains` (every recipient\'s domain in the list), `domains_any` (some recipient\'s domain in the list), optional `approvers` (`chn_…`) and `description`. Without a matching rule, ask_approval goes to a person and tool calls are allowed. E.g. `{rules: [{id: "small-refunds", action: "refund", amount_lte: 50, effect: "auto_approve_notify"}, {id: "internal-mail", tool: "email_send", domains: ["example.com"], effect: "allow"}, {id: "other-mail", tool: "email_send", effect: "require_approval"}]}`.';
