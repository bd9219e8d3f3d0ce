import { z } from "zod";
import { addDomain } from "@/lib/mail/domains/add-domain";
import { lookUpDomainDns, recordDomainCheck } from "@/lib/mail/domains/check-domain-dns";
import { dnsRecords } from "@/lib/mail/domains/dns-records";
import { type DomainView, listDomains } from "@/lib/mail/domains/list-domains";
import { removeDomain } from "@/lib/mail/domains/remove-domain";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** The Domains screen over owner REST: the same domain functions and ledger ops as app/(dashboard)/mail/actions.ts. */

const domainId = z.string().min(1).max(64);
const recordShape = z.object({ kind: z.string(), type: z.string(), name: z.string(), value: z.string(), why: z.string() });
const checkShape = z.object({ kind: z.string(), ok: z.boolean(), found: z.array(z.string()), note: z.string() });
const domainShape = z.object({
  id: z.string(),
  domain: z.string(),
  is_default: z.boolean().describe("The instance's MAIL_DOMAIN, shared by every project; it cannot be removed."),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  records: z.array(recordShape).describe("The DNS records to publish."),
  dns_check: z
    .object({ checked_at: z.string(), records: z.array(checkShape) })
    .nullable()
    .describe("The last DNS check."),
  created_at: z.string(),
});

const domainOut = (d: DomainView): z.input<typeof domainShape> => ({
  id: d.id,
  domain: d.domain,
  is_default: d.isDefault,
  verified: d.verified,
  verified_at: d.verifiedAt?.toISOString() ?? null,
  records: d.records,
  dns_check: d.dnsCheck,
  created_at: d.createdAt.toISOString(),
});

export const listDomainsRoute = defineOwnerRoute({
  name: "owner_domains_list",
  description: "Lists the mail domains the project can use: the instance's default domain first, then its own, with the DNS records each needs.",
  input: z.object({}).strict(),
  output: z.object({ domains: z.array(domainShape) }),
  rest: { method: "GET", path: "/owner/mail/domains" },
  handler: async (ctx) => ({ domains: (await listDomains(ctx.db, { projectId: ctx.actor.projectId })).map(domainOut) }),
});

export const addDomainRoute = defineOwnerRoute({
  name: "owner_domains_add",
  description:
    "Adds a custom mail domain with a fresh DKIM key and returns the DNS records to publish. It receives mail and signs outbound once a DNS check finds its DKIM record.",
  input: z.object({ domain: z.string().min(1).max(253) }).strict(),
  output: z.object({ id: z.string(), domain: z.string(), selector: z.string(), records: z.array(recordShape) }),
  rest: { method: "POST", path: "/owner/mail/domains" },
  status: 201,
  op: "mail.domain_add",
  handler: async (ctx, input) => {
    const row = await addDomain(ctx.db, { actor: ctx.actor, domain: input.domain });
    ctx.subject = row.id;
    return { id: row.id, domain: row.domain, selector: row.dkimSelector, records: dnsRecords(row) };
  },
});

export const checkDomainRoute = defineOwnerRoute({
  name: "owner_domains_check",
  description: "Looks up the domain's MX, SPF, DKIM and DMARC records (with timeouts) and stores the result; a matching DKIM record verifies it.",
  input: z.object({ domain_id: domainId }).strict(),
  output: z.object({ domain: z.string(), verified: z.boolean(), records: z.array(checkShape) }),
  rest: { method: "POST", path: "/owner/mail/domains/{domain_id}/check" },
  op: "mail.domain_check",
  prepare: (ctx, input) => lookUpDomainDns(ctx.db, { actor: ctx.actor, domainId: input.domain_id }),
  handler: async (ctx, input) => {
    ctx.subject = input.domain_id;
    const row = await recordDomainCheck(ctx.db, ctx.prepared);
    return { domain: row.domain, verified: row.projectId === null || row.verifiedAt !== null, records: row.dnsCheck?.records ?? [] };
  },
});

export const removeDomainRoute = defineOwnerRoute({
  name: "owner_domains_remove",
  description: "Removes a custom domain; refused (409) while live mailboxes use it.",
  input: z.object({ domain_id: domainId }).strict(),
  output: z.object({ domain: z.string() }),
  rest: { method: "DELETE", path: "/owner/mail/domains/{domain_id}" },
  op: "mail.domain_remove",
  handler: async (ctx, input) => {
    ctx.subject = input.domain_id;
    return removeDomain(ctx.db, { actor: ctx.actor, domainId: input.domain_id });
  },
});
