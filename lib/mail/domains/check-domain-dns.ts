import { promises as dns } from "node:dns";
import { dkimRecordProblem } from "@/lib/mail/domains/dkim-record-problem";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailDomains, type DnsCheck, type MailDomain } from "@/lib/db/schema/mail";
import { env } from "@/lib/env";
import { notFound } from "@/lib/errors";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";
import { dkimRecordName, dnsRecords } from "@/lib/mail/domains/dns-records";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";

/** The two lookups the check needs; tests pass answers, production the system resolver with a timeout. */
export interface DomainDns {
  resolveMx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
  resolveTxt(name: string): Promise<string[][]>;
}

export function systemDomainDns(): DomainDns {
  const r = new dns.Resolver({ timeout: env().MAIL_DNS_TIMEOUT_MS, tries: 2 });
  return { resolveMx: (n) => r.resolveMx(n), resolveTxt: (n) => r.resolveTxt(n) };
}

/** Answers or the reason there are none: "no record" for NXDOMAIN/NODATA, the error code otherwise (e.g. ETIMEOUT). */
async function lookup<T>(fn: () => Promise<T[]>): Promise<{ found: T[]; error: string | null }> {
  try {
    return { found: await fn(), error: null };
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { found: [], error: code === "ENOTFOUND" || code === "ENODATA" ? null : `DNS lookup failed (${code ?? "error"})` };
  }
}

/** A domain as read before its lookups, and what DNS answered: recordDomainCheck stores it. */
export interface DomainLookup {
  domain: MailDomain;
  check: DnsCheck;
}

/**
 * The Domains screen's "check DNS": looks up the four records and compares them with what Brynth expects. A custom
 * domain becomes verified (receives mail, signs outbound) once its DKIM record matches; it stays verified if a later
 * check cannot reach DNS. Stored with the domain. In two steps, so that routes wait on DNS (seconds, when it times
 * out) before their transaction opens: lookUpDomainDns, then recordDomainCheck.
 */
export async function checkDomainDns(db: Executor, opts: { actor: Actor; domainId: string; dns?: DomainDns }) {
  return recordDomainCheck(db, await lookUpDomainDns(db, opts));
}

/** The lookups, compared with the records the domain should publish; reads the domain, writes nothing. */
export async function lookUpDomainDns(db: Executor, opts: { actor: Actor; domainId: string; dns?: DomainDns }): Promise<DomainLookup> {
  const [d] = await db
    .select()
    .from(mailDomains)
    .where(and(eq(mailDomains.id, opts.domainId), or(eq(mailDomains.projectId, opts.actor.projectId), isNull(mailDomains.projectId))));
  if (!d) throw notFound(`Domain ${opts.domainId}`);
  const resolver = opts.dns ?? systemDomainDns();
  const want = Object.fromEntries(dnsRecords(d).map((r) => [r.kind, r]));
  const [mx, txt, dkim, dmarc] = await Promise.all([
    lookup(() => resolver.resolveMx(d.domain)),
    lookup(() => resolver.resolveTxt(d.domain)),
    lookup(() => resolver.resolveTxt(dkimRecordName(d))),
    lookup(() => resolver.resolveTxt(`_dmarc.${d.domain}`)),
  ]);
  const host = mailHostname().toLowerCase();
  const mxHosts = mx.found.map((m) => m.exchange.toLowerCase().replace(/\.$/, ""));
  const spf = txt.found.map((t) => t.join("")).filter((t) => t.toLowerCase().startsWith("v=spf1"));
  const dkimValues = dkim.found.map((t) => t.join(""));
  const dkimProblem = dkimRecordProblem(dkimValues, d.dkimPublicKey);
  const dmarcValues = dmarc.found.map((t) => t.join("")).filter((t) => t.toLowerCase().startsWith("v=dmarc1"));
  const note = (ok: boolean, error: string | null, missing: string, wrong: string, found: string[]) =>
    ok ? "ok" : (error ?? (found.length === 0 ? missing : wrong));
  const records: DnsCheck["records"] = [
    {
      kind: "MX",
      ok: mxHosts.includes(host),
      found: mxHosts,
      note: note(mxHosts.includes(host), mx.error, "no MX record", `MX does not point to ${host}`, mxHosts),
    },
    {
      kind: "SPF",
      ok: spf.length === 1,
      found: spf,
      note: note(spf.length === 1, txt.error, "no SPF record", "more than one SPF record (receivers treat that as an error)", spf),
    },
    {
      kind: "DKIM",
      ok: dkimProblem === null,
      found: dkimValues.map((v) => (v.length > 80 ? `${v.slice(0, 77)}…` : v)),
      note: note(dkimProblem === null, dkim.error, `no TXT record at ${want.DKIM.name}`, dkimProblem ?? "", dkimValues),
    },
    {
      kind: "DMARC",
      ok: dmarcValues.length === 1,
      found: dmarcValues,
      note: note(dmarcValues.length === 1, dmarc.error, "no DMARC record", "more than one DMARC record", dmarcValues),
    },
  ];
  return { domain: d, check: { checked_at: new Date().toISOString(), records } };
}

/** Stores a lookup on its domain, verifying it when DKIM matched; NOT_FOUND if the domain was removed meanwhile. */
export async function recordDomainCheck(db: Executor, { domain: d, check }: DomainLookup) {
  const dkimOk = check.records.find((r) => r.kind === "DKIM")?.ok === true;
  // The instance's default domain belongs to no project: only it is found by id alone.
  const same = and(eq(mailDomains.id, d.id), d.projectId === null ? isNull(mailDomains.projectId) : eq(mailDomains.projectId, d.projectId));
  let [row] = await db.update(mailDomains).set({ dnsCheck: check, updatedAt: sql`now()` }).where(same).returning();
  // Removed while DNS answered: there is nothing left to record the check on.
  if (!row) throw notFound(`Domain ${d.id}`);
  if (d.projectId === null || !dkimOk || row.verifiedAt) return row;
  // The first check that verifies it is the change subscribers hear about (`domain.verified`, for no one mailbox):
  // decided by the row as it is when written, so of two checks at once only one finds it unverified.
  const [verified] = await db
    .update(mailDomains)
    .set({ verifiedAt: sql`now()` })
    .where(and(same, isNull(mailDomains.verifiedAt)))
    .returning();
  if (verified) {
    row = verified;
    await emitMailEvent(db, {
      projectId: d.projectId,
      mailboxId: null,
      type: "domain.verified",
      messageId: null,
      threadId: null,
      summary: { from: null, to: [], subject: null, preview: null, labels: [], domain: d.domain },
    });
  }
  return row;
}
