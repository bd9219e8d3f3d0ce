import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { mailDomains } from "@/lib/db/schema/mail";
import { removeDomain } from "@/lib/mail/domains/remove-domain";
import { createMailbox } from "@/lib/mail/mailboxes/create-mailbox";
import { resetEnvCache } from "@/lib/env";
import { startSink } from "@/lib/mail/__tests__/helpers";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { asKey, namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";

/**
 * Mail settings (the relay) and the Domains screen over owner REST (HTTP Basic), the relay tested against a real
 * smtp-server sink. DNS checks run against this machine's resolver, which has no internet: they report what they
 * could not find, and verify nothing.
 */
let c: Awaited<ReturnType<typeof ownerClient>>;
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

/** A custom domain of the project, added over owner REST and marked verified, so mailboxes may be made on it. */
async function verifiedDomain(domain: string) {
  const added = await c.call("POST", "/owner/mail/domains", { domain });
  await (await getDb()).update(mailDomains).set({ verifiedAt: new Date() }).where(eq(mailDomains.id, added.body.id));
  return added;
}
let sink: Awaited<ReturnType<typeof startSink>>;

beforeAll(async () => {
  delete process.env.SMTP_RELAY_URL;
  process.env.MAIL_DNS_TIMEOUT_MS = "300";
  resetEnvCache();
  sink = await startSink();
  c = await ownerClient("Mail settings REST");
});
afterAll(async () => {
  closeRelayTransports();
  await c.server.close();
  await sink.close();
  delete process.env.MAIL_DNS_TIMEOUT_MS;
  resetEnvCache();
});

describe("owner REST: relay", () => {
  it("saves the relay (password never shown nor ledgered), sends a test through it, keeps the password when left out, and removes it", async () => {
    expect((await c.call("GET", "/owner/mail/relay")).body).toEqual({ relay: null, env_relay: false });
    const noRelay = await c.call("POST", "/owner/mail/relay/test", { to: "owner@example.com" });
    expect(noRelay.status).toBe(503);

    const relay = { host: "127.0.0.1", port: sink.port, security: "none", username: "agent-mail", password: "s3cret-pass" };
    const saved = await c.call("PUT", "/owner/mail/relay", relay);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ host: "127.0.0.1", port: sink.port, security: "none", username: "agent-mail", has_password: true });
    const entry = await c.entry("mail.relay_set");
    expect(entry?.subject).toBe(c.seeded.project.id);
    expect(JSON.stringify(entry)).not.toContain("s3cret");

    const test = await c.call("POST", "/owner/mail/relay/test", { to: "owner@example.com" });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ origin: "project" });
    expect(test.body.response).toMatch(/^250/);
    expect(sink.received.at(-1)?.to).toEqual(["owner@example.com"]);
    expect(sink.logins.at(-1)).toEqual({ username: "agent-mail", password: "s3cret-pass" });
    expect(await c.entry("mail.relay_test")).toBeDefined();

    const kept = await c.call("PUT", "/owner/mail/relay", { ...relay, password: undefined });
    expect(kept.body.has_password).toBe(true);
    const cleared = await c.call("PUT", "/owner/mail/relay", { ...relay, password: undefined, clear_password: true });
    expect(cleared.body.has_password).toBe(false);
    expect((await c.call("GET", "/owner/mail/relay")).body.relay).toMatchObject({ host: "127.0.0.1", has_password: false });

    expect((await c.call("DELETE", "/owner/mail/relay")).body).toEqual({ removed: true });
    expect(await c.entry("mail.relay_remove")).toBeDefined();
    expect((await c.call("GET", "/owner/mail/relay")).body.relay).toBeNull();
  });

  it("names the fields of a bad relay and of a bad test address, and saves nothing", async () => {
    const bad = await c.call("PUT", "/owner/mail/relay", { host: "smtp example", port: 70000, security: "ssl", clearPassword: true });
    expect(bad.status).toBe(400);
    expect(namesFields(bad.body, ["host", "port", "security", "clearPassword"])).toBe(true);
    expect((await c.call("GET", "/owner/mail/relay")).body.relay).toBeNull();
    // A port is a JSON number: these were read as 1, 587, 587 and 500, and saved.
    for (const port of [true, [587], "0x24b", "5e2", "587"]) {
      const wrong = await c.call("PUT", "/owner/mail/relay", { host: "relay.example.org", port, security: "starttls" });
      expect(wrong.status, JSON.stringify(port)).toBe(400);
      expect(namesFields(wrong.body, ["port"])).toBe(true);
    }
    expect((await c.call("GET", "/owner/mail/relay")).body.relay).toBeNull();
    const badTo = await c.call("POST", "/owner/mail/relay/test", { to: "not an address" });
    expect(badTo.status).toBe(400);
    expect(badTo.body.error.code).toBe("validation_error");
  });
});

describe("owner REST: domains", () => {
  it("adds a domain with its DNS records, lists it after the default one, checks its DNS and removes it", async () => {
    const added = await c.call("POST", "/owner/mail/domains", { domain: "Mail.Example.org" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ domain: "mail.example.org" });
    expect(added.body.records.map((r: { kind: string }) => r.kind).sort()).toEqual(["DKIM", "DMARC", "MX", "SPF"]);
    expect((await c.entry("mail.domain_add"))?.subject).toBe(added.body.id);

    const listed = (await c.call("GET", "/owner/mail/domains")).body.domains;
    expect(listed[0]).toMatchObject({ is_default: true, verified: true });
    expect(listed.find((d: { id: string }) => d.id === added.body.id)).toMatchObject({ is_default: false, verified: false, dns_check: null });

    const checked = await c.call("POST", `/owner/mail/domains/${added.body.id}/check`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ domain: "mail.example.org", verified: false });
    expect(checked.body.records).toHaveLength(4);
    expect((await c.entry("mail.domain_check"))?.subject).toBe(added.body.id);

    expect((await c.call("DELETE", `/owner/mail/domains/${added.body.id}`)).body).toEqual({ domain: "mail.example.org" });
    expect((await c.entry("mail.domain_remove"))?.subject).toBe(added.body.id);
    expect((await c.call("DELETE", `/owner/mail/domains/${added.body.id}`)).status).toBe(404);
  });

  it("removes a domain once when removals race: one answers it removed and is ledgered, the others 404", async () => {
    const added = await c.call("POST", "/owner/mail/domains", { domain: "raced.example.org" });
    const answers = await Promise.all(Array.from({ length: 4 }, () => c.call("DELETE", `/owner/mail/domains/${added.body.id}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404]);
    const entries = await (await getDb())
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, c.seeded.project.id), eq(ledgerEntries.op, "mail.domain_remove"), eq(ledgerEntries.subject, added.body.id)));
    expect(entries).toHaveLength(1);
  });

  // A transaction held open by the test: PGlite's one connection would wait on it forever.
  it.runIf(onPostgres)("refuses to remove a domain a mailbox is being created on, once that mailbox commits, with 409 rather than a 500", async () => {
    const added = await verifiedDomain("busy.example.org");
    const db = await getDb();
    let removal: Promise<{ status: number; body: { error?: { code: string } } }> | undefined;
    await db.transaction(async (tx) => {
      await createMailbox(tx, { actor: c.seeded.actor, username: "busy", domain: "busy.example.org" });
      // The removal counts the domain's mailboxes while this one is not committed yet, then waits on its row.
      removal = c.call("DELETE", `/owner/mail/domains/${added.body.id}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const res = await removal!;
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe("CONFLICT");
  });

  it.runIf(onPostgres)("refuses an agent's mailbox on a domain being removed, once the removal commits, by field rather than with a 500", async () => {
    const added = await verifiedDomain("going.example.org");
    const db = await getDb();
    let creation: ReturnType<typeof c.call> | undefined;
    await db.transaction(async (tx) => {
      await removeDomain(tx, { actor: c.seeded.actor, domainId: added.body.id });
      creation = c.call("POST", "/inboxes", { username: "late", domain: "going.example.org" }, asKey(c.seeded.secret));
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const res = await creation!;
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain("domain");
  });

  it("refuses a bad name by field, a taken or default domain with 409, and unknown or shared domains with 404", async () => {
    // An IP address is not a domain (found by helper-101: 127.0.0.1 was added, and no DNS record could verify it).
    for (const domain of ["not a domain", "127.0.0.1", "mail.10"]) {
      const bad = await c.call("POST", "/owner/mail/domains", { domain });
      expect(bad.status, domain).toBe(400);
      expect(namesFields(bad.body, ["domain"])).toBe(true);
    }
    const missing = await c.call("POST", "/owner/mail/domains", {});
    expect(namesFields(missing.body, ["domain"])).toBe(true);

    expect((await c.call("POST", "/owner/mail/domains", { domain: "brynth.localhost" })).status).toBe(409);
    expect((await c.call("POST", "/owner/mail/domains", { domain: "taken.example.org" })).status).toBe(201);
    const taken = await c.call("POST", "/owner/mail/domains", { domain: "taken.example.org" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("CONFLICT");

    const defaultId = (await c.call("GET", "/owner/mail/domains")).body.domains[0].id;
    expect((await c.call("DELETE", `/owner/mail/domains/${defaultId}`)).status).toBe(404);
    expect((await c.call("DELETE", "/owner/mail/domains/dom_unknown")).status).toBe(404);
    expect((await c.call("POST", "/owner/mail/domains/dom_unknown/check")).status).toBe(404);
  });
});
