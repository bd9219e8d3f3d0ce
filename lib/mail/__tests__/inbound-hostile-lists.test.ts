import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { listCandidates } from "@/lib/mail/inbound/list-verdict";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver, sendTo } from "@/lib/mail/__tests__/helpers";
import { addListEntry, addMailbox, messageByRfc } from "@/lib/mail/__tests__/mail-store-helpers";

/**
 * A blocked sender writing its own domain another way. List entries are ASCII, lower case, without a root dot
 * (list-entry-value.ts); a From header may hold the same domain with a trailing dot, in full-width letters, with a
 * zero-width space, or as Unicode instead of its xn-- form. Each is that domain, so each must be blocked.
 */
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  seeded = await seedProject({ name: "Hostile lists" });
  // The sender's own envelope domain passes SPF, so nothing but the lists keeps its mail out.
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver({ "relay.example": "v=spf1 ip4:127.0.0.1 -all" }) });
});
afterAll(async () => {
  await listener.close();
});

describe("receive lists against a sender's spelling", () => {
  it("reads a sender's domain as list entries hold it: xn--, lower case, no root dot, invisible characters gone", () => {
    expect(listCandidates("Bob@EVIL.example.")).toEqual(["bob@evil.example", "evil.example", "example"]);
    expect(listCandidates("bob@ｅｖｉｌ.example")).toEqual(["bob@evil.example", "evil.example", "example"]);
    expect(listCandidates("bob@evil\u200b.example")).toEqual(["bob@evil.example", "evil.example", "example"]);
    expect(listCandidates("bob@Bücher.example")).toEqual(["bob@xn--bcher-kva.example", "xn--bcher-kva.example", "example"]);
    // Not a domain name at all: compared as written, without parents.
    expect(listCandidates("bob@[192.0.2.1]")).toEqual(["bob@[192.0.2.1]", "[192.0.2.1]"]);
  });

  // Every parent of a 500,000-label domain was a candidate: quadratic copying, and as many query parameters.
  it("matches a 1 MB sender against nothing, at once", { timeout: 15_000 }, () => {
    expect(listCandidates(`bob@${"a.".repeat(500_000)}example`)).toEqual([]);
    expect(listCandidates(`bob@${".".repeat(1_000_000)}x`)).toEqual([]);
  });

  // mailparser reads a 400 KB From address whole; its 200,000 parent domains, each a copy of the rest, ran the
  // process out of memory before the message was stored.
  it("stores mail whose From domain has 200,000 labels, and blocks it under an allow list", { timeout: 60_000 }, async () => {
    const mb = await addMailbox(seeded.project.id, "labels");
    await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "allow", entry: "partner.example" });
    const from = `bob@${"a.".repeat(200_000)}example`;
    const raw = Buffer.from(`From: ${from}\r\nTo: ${mb.address}\r\nSubject: Labels\r\nMessage-ID: <labels@relay.example>\r\n\r\nhi\r\n`);
    await sendTo(listener.port, { envelope: { from: "bounces@relay.example", to: [mb.address] }, raw });
    const row = await messageByRfc(mb.id, "labels@relay.example");
    expect(row.fromAddress).toBe(from);
    expect(row.category).toBe("blocked");
  });

  it("blocks mail from a blocked domain however its From header spells it", async () => {
    const mb = await addMailbox(seeded.project.id, "spelled");
    for (const entry of ["evil.example", "xn--bcher-kva.example", "eve@quoted.example"]) {
      await addListEntry({ projectId: seeded.project.id, mailboxId: mb.id, direction: "receive", type: "block", entry });
    }
    const froms = ["x@evil.example.", "x@ｅｖｉｌ.example", "x@evil\u200b.example", "x@EVIL.Example", "x@bücher.example", "x@sub.bücher.example."];
    // The address entry's mailbox with its local part quoted for no reason (found by helper-107).
    froms.push('Eve <"eve"@quoted.example>', '"e\\ve"@quoted.example');
    for (const [i, from] of froms.entries()) {
      const raw = Buffer.from(`From: ${from}\r\nTo: ${mb.address}\r\nSubject: Offer ${i}\r\nMessage-ID: <spelled-${i}@relay.example>\r\n\r\nbuy\r\n`, "utf8");
      await sendTo(listener.port, { envelope: { from: "bounces@relay.example", to: [mb.address] }, raw });
    }
    for (const [i, from] of froms.entries()) {
      const row = await messageByRfc(mb.id, `spelled-${i}@relay.example`);
      expect([from, row.category, row.labels]).toEqual([from, "blocked", ["received", "unread", "blocked"]]);
    }
  });
});
