import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailDomains } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { addDomain } from "@/lib/mail/domains/add-domain";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { envSettings } from "@/lib/testing/env-settings";
import { checkDomainDns, type DomainDns } from "@/lib/mail/domains/check-domain-dns";
import { dnsRecords } from "@/lib/mail/domains/dns-records";
import { listDomains } from "@/lib/mail/domains/list-domains";
import { removeDomain } from "@/lib/mail/domains/remove-domain";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver, sendTo } from "@/lib/mail/__tests__/helpers";

/** Custom domains: DKIM key per domain, the records to publish, the DNS check that verifies, and receiving. */
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  seeded = await seedProject();
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
});
afterAll(async () => {
  await listener.close();
});

/** A DNS server's answers, as the check's two lookups see them. */
function zone(records: { mx?: Record<string, string[]>; txt?: Record<string, string[]> }, failing = false): DomainDns {
  const missing = (n: string) => Object.assign(new Error(`ENOTFOUND ${n}`), { code: failing ? "ETIMEOUT" : "ENOTFOUND" });
  return {
    resolveMx: async (n) => {
      const v = records.mx?.[n];
      if (!v) throw missing(n);
      return v.map((exchange, i) => ({ exchange, priority: 10 * (i + 1) }));
    },
    resolveTxt: async (n) => {
      const v = records.txt?.[n];
      if (!v) throw missing(n);
      return v.map((t) => [t.slice(0, 255), t.slice(255)].filter(Boolean));
    },
  };
}

const tx = async <T>(fn: (db: Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0]) => Promise<T>) => (await getDb()).transaction(fn);

describe("the default domain", () => {
  it("is not remembered from a transaction that rolled back: the next mailbox names a row that exists", async () => {
    const settings = envSettings("MAIL_DOMAIN");
    settings.set({ MAIL_DOMAIN: `rolled-${newId("x").slice(2, 10).toLowerCase()}.example` });
    try {
      const db = await getDb();
      const made = await db
        .transaction(async (tx) => {
          const row = await ensureDefaultDomain(tx);
          throw Object.assign(new Error("rolled back"), { row });
        })
        .catch((err: { row: { id: string } }) => err.row);
      // Before: the rolled-back row was cached, and every later mailbox failed on its foreign key.
      const kept = await ensureDefaultDomain(db);
      expect(kept.id).not.toBe(made.id);
      expect(await db.select({ id: mailDomains.id }).from(mailDomains).where(eq(mailDomains.id, kept.id))).toEqual([{ id: kept.id }]);
    } finally {
      settings.restore();
    }
  });
});

describe("mail domains", () => {
  it("lists the default domain with its records, and adds a custom one with its own key", async () => {
    const before = await listDomains(await getDb(), { projectId: seeded.project.id });
    expect(before.map((d) => [d.domain, d.isDefault, d.verified])).toEqual([["brynth.localhost", true, true]]);
    expect(before[0].records.map((r) => r.kind)).toEqual(["MX", "SPF", "DKIM", "DMARC"]);

    const added = await tx((db) => addDomain(db, { actor: seeded.actor, domain: "  Mail.Example.COM " }));
    expect(added.domain).toBe("mail.example.com");
    expect(added.verifiedAt).toBeNull();
    expect(added.dkimPrivateKeyEnc).not.toContain("PRIVATE KEY");
    const dkim = dnsRecords(added).find((r) => r.kind === "DKIM")!;
    expect(dkim.name).toBe(`${added.dkimSelector}._domainkey.mail.example.com`);
    expect(dkim.value).toBe(`v=DKIM1; k=rsa; p=${added.dkimPublicKey}`);

    await expect(tx((db) => addDomain(db, { actor: seeded.actor, domain: "mail.example.com" }))).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(tx((db) => addDomain(db, { actor: seeded.actor, domain: "brynth.localhost" }))).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(tx((db) => addDomain(db, { actor: seeded.actor, domain: "not a domain" }))).rejects.toMatchObject({ code: "validation_error" });
    await expect(tx((db) => addDomain(db, { actor: seeded.actor, domain: "localhost" }))).rejects.toMatchObject({ code: "validation_error" });
  });

  it("receives for a custom domain only once DNS verifies it", async () => {
    const db = await getDb();
    const [d] = await db.select().from(mailDomains).where(eq(mailDomains.domain, "mail.example.com"));
    await db
      .insert(mailboxes)
      .values({ id: newId("mbx"), projectId: seeded.project.id, domainId: d.id, localPart: "sales", address: "sales@mail.example.com" });
    await expect(sendTo(listener.port, { from: "a@b.example", to: "sales@mail.example.com", subject: "x", text: "x" })).rejects.toMatchObject({
      responseCode: 550,
    });

    // A timeout is not a verdict: nothing verified, the note says why.
    const timedOut = await tx((t) => checkDomainDns(t, { actor: seeded.actor, domainId: d.id, dns: zone({}, true) }));
    expect(timedOut.verifiedAt).toBeNull();
    expect(timedOut.dnsCheck!.records.every((r) => !r.ok && r.note.includes("ETIMEOUT"))).toBe(true);

    const records = dnsRecords(d);
    const value = (k: string) => records.find((r) => r.kind === k)!;
    const checked = await tx((t) =>
      checkDomainDns(t, {
        actor: seeded.actor,
        domainId: d.id,
        dns: zone({
          mx: { "mail.example.com": [value("MX").value.split(" ")[1]] },
          txt: {
            "mail.example.com": [value("SPF").value, "google-site-verification=x"],
            [value("DKIM").name]: [value("DKIM").value],
            [value("DMARC").name]: [value("DMARC").value],
          },
        }),
      }),
    );
    expect(checked.verifiedAt).not.toBeNull();
    expect(Object.fromEntries(checked.dnsCheck!.records.map((r) => [r.kind, r.ok]))).toEqual({ MX: true, SPF: true, DKIM: true, DMARC: true });

    await sendTo(listener.port, { from: "a@b.example", to: "sales@mail.example.com", subject: "x", text: "x" });
    await expect(tx((t) => removeDomain(t, { actor: seeded.actor, domainId: d.id }))).rejects.toMatchObject({ code: "CONFLICT" });
    // Its mailbox deleted (the row stays, with its mail), the domain goes: the foreign key made this a 500 for good.
    const [sales] = await db.select().from(mailboxes).where(eq(mailboxes.address, "sales@mail.example.com"));
    await tx((t) => deleteMailbox(t, { actor: seeded.actor, inboxId: sales.id }));
    expect(await tx((t) => removeDomain(t, { actor: seeded.actor, domainId: d.id }))).toEqual({ domain: "mail.example.com" });
    expect(await db.select().from(mailDomains).where(eq(mailDomains.id, d.id))).toEqual([]);
    expect((await db.select().from(mailboxes).where(eq(mailboxes.id, sales.id)))[0].deletedAt).not.toBeNull();
  });

  it("reports a wrong DKIM key and keeps other projects' domains out of reach", async () => {
    const added = await tx((db) => addDomain(db, { actor: seeded.actor, domain: "other.example.org" }));
    const wrong = await tx((t) =>
      checkDomainDns(t, {
        actor: seeded.actor,
        domainId: added.id,
        dns: zone({ txt: { [`${added.dkimSelector}._domainkey.other.example.org`]: ["v=DKIM1; k=rsa; p=AAAA"] } }),
      }),
    );
    expect(wrong.verifiedAt).toBeNull();
    expect(wrong.dnsCheck!.records.find((r) => r.kind === "DKIM")!.note).toContain("not Brynth's");
    const stranger = await seedProject();
    await expect(tx((t) => removeDomain(t, { actor: stranger.actor, domainId: added.id }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(tx((t) => checkDomainDns(t, { actor: stranger.actor, domainId: added.id, dns: zone({}) }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await tx((t) => removeDomain(t, { actor: seeded.actor, domainId: added.id }))).toEqual({ domain: "other.example.org" });
  });
});
