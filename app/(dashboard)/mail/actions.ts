"use server";

import { z } from "zod";
import { type ActionPrepare, ownerAction } from "@/lib/auth/owner-action";
import { addDomain } from "@/lib/mail/domains/add-domain";
import { type DomainLookup, lookUpDomainDns, recordDomainCheck } from "@/lib/mail/domains/check-domain-dns";
import { removeDomain } from "@/lib/mail/domains/remove-domain";
import { relayInput, relaySetLedger, removeRelay, saveRelay } from "@/lib/mail/relay/save-relay";
import { testRelay } from "@/lib/mail/relay/test-relay";
import { plainAddress } from "@/lib/mail/outbound/address-rules";

const domainId = z.object({ domainId: z.string().min(1).max(64) });

/** A DKIM key is generated for it. */
export const addDomainAction = ownerAction(
  z.object({ domain: z.string().min(1).max(253) }),
  async (ctx, input) => {
    const row = await addDomain(ctx.db, { actor: ctx.actor, domain: input.domain });
    ctx.subject = row.id;
    return { id: row.id, domain: row.domain, selector: row.dkimSelector };
  },
  { op: "mail.domain_add" },
);

const lookUpDns: ActionPrepare<{ domainId: string }, DomainLookup> = (ctx, input) => lookUpDomainDns(ctx.db, { actor: ctx.actor, domainId: input.domainId });

/** Looks up MX/SPF/DKIM/DMARC (with timeouts), before the transaction opens. */
export const checkDnsAction = ownerAction(
  domainId,
  async (ctx, input) => {
    ctx.subject = input.domainId;
    const row = await recordDomainCheck(ctx.db, ctx.prepared);
    return { domain: row.domain, verified: row.projectId === null || row.verifiedAt !== null, records: row.dnsCheck?.records ?? [] };
  },
  { op: "mail.domain_check" },
  { prepare: lookUpDns },
);

/** Refused while mailboxes use the domain. */
export const removeDomainAction = ownerAction(
  domainId,
  async (ctx, input) => {
    ctx.subject = input.domainId;
    return removeDomain(ctx.db, { actor: ctx.actor, domainId: input.domainId });
  },
  { op: "mail.domain_remove" },
);

/** Never the password in the ledger, not even digested. */
export const saveRelayAction = ownerAction(
  relayInput,
  async (ctx, input) => {
    ctx.subject = ctx.actor.projectId;
    return saveRelay(ctx.db, { actor: ctx.actor, ...input });
  },
  relaySetLedger,
);

/** SMTP_RELAY_URL applies again, if set. */
export const removeRelayAction = ownerAction(
  z.object({}),
  async (ctx) => {
    ctx.subject = ctx.actor.projectId;
    await removeRelay(ctx.db, { actor: ctx.actor });
  },
  { op: "mail.relay_remove" },
);

const sendRelayTest: ActionPrepare<{ to: string }, Awaited<ReturnType<typeof testRelay>>> = (ctx, input) =>
  testRelay(ctx.db, { actor: ctx.actor, to: input.to });

/**
 * Sends one signed test message through the relay, before the transaction opens, and reports its answer. The address is checked here too, in an
 * owner's words: testRelay's own check speaks to agents ("plain ASCII address local@domain").
 */
export const testRelayAction = ownerAction(
  z.object({
    to: z
      .string()
      .trim()
      .min(1, "Enter the address to send the test to.")
      .max(254)
      .refine((v) => plainAddress.safeParse(v).success, "Enter a plain address such as name@example.com, without a name before it."),
  }),
  async (ctx) => {
    ctx.subject = ctx.actor.projectId;
    return ctx.prepared;
  },
  { op: "mail.relay_test" },
  { prepare: sendRelayTest },
);
