"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { addDomain } from "@/lib/mail/domains/add-domain";
import { checkDomainDns } from "@/lib/mail/domains/check-domain-dns";
import { removeDomain } from "@/lib/mail/domains/remove-domain";
import { relayInput, removeRelay, saveRelay } from "@/lib/mail/relay/save-relay";
import { testRelay } from "@/lib/mail/relay/test-relay";

const domainId = z.object({ domainId: z.string().min(1).max(64) });

/** Ledgered as `mail.domain_add`; a DKIM key is generated for it. */
export const addDomainAction = ownerAction(z.object({ domain: z.string().min(1).max(253) }), async (ctx, input) => {
  const row = await addDomain(ctx.db, { actor: ctx.actor, domain: input.domain });
  return { id: row.id, domain: row.domain };
});

/** Looks up MX/SPF/DKIM/DMARC (with timeouts); ledgered as `mail.domain_check`. */
export const checkDnsAction = ownerAction(domainId, async (ctx, input) => {
  const row = await checkDomainDns(ctx.db, { actor: ctx.actor, domainId: input.domainId });
  return { domain: row.domain, verified: row.projectId === null || row.verifiedAt !== null, records: row.dnsCheck?.records ?? [] };
});

/** Ledgered as `mail.domain_remove`; refused while mailboxes use the domain. */
export const removeDomainAction = ownerAction(domainId, (ctx, input) => removeDomain(ctx.db, { actor: ctx.actor, domainId: input.domainId }));

/** Ledgered as `mail.relay_set` (never the password). */
export const saveRelayAction = ownerAction(relayInput, (ctx, input) => saveRelay(ctx.db, { actor: ctx.actor, ...input }));

/** Ledgered as `mail.relay_remove`: SMTP_RELAY_URL applies again, if set. */
export const removeRelayAction = ownerAction(z.object({}), (ctx) => removeRelay(ctx.db, { actor: ctx.actor }));

/** Sends one signed test message through the relay and reports its answer; ledgered as `mail.relay_test`. */
export const testRelayAction = ownerAction(z.object({ to: z.string().min(3).max(254) }), (ctx, input) => testRelay(ctx.db, { actor: ctx.actor, to: input.to }));
