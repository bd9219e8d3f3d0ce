import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { sources } from "@/lib/db/schema/events";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { digest } from "@/lib/ledger/canonical";
import { seedProject } from "@/lib/testing/seed";
import { mcpCall, restCall, toolHarness } from "@/lib/tools/events/__tests__/tool-client";

const h = toolHarness();

describe("source_add / source_list / source_remove", () => {
  it("adds a webhook source, returns its URL, lists it and never shows the secret", async () => {
    const added = await mcpCall(h.client, "source_add", { type: "webhook", name: "stripe", verification: "stripe", secret: "whsec_abcdefgh" });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    expect(added.data).toMatchObject({ name: "stripe", type: "webhook", verification: "stripe", address: null });
    expect(added.data.url).toMatch(new RegExp(`^${h.server.url}/hooks/[A-Za-z0-9_-]{43}$`));
    expect(JSON.stringify(added.data)).not.toContain("whsec_abcdefgh");
    const [row] = await (await getDb()).select().from(sources).where(eq(sources.id, added.data.id));
    expect(row.secretEnc).not.toContain("whsec_abcdefgh");

    // The ledger digests the call's input, but never over the secret (a weak one could be guessed offline).
    const [entry] = await (await getDb()).select().from(ledgerEntries).where(eq(ledgerEntries.subject, added.data.id));
    const args = { type: "webhook", name: "stripe", verification: "stripe" };
    expect(entry.inputDigest).toBe(digest({ ...args, secret: {} }));
    expect(entry.inputDigest).not.toBe(digest({ ...args, secret: "whsec_abcdefgh" }));

    const listed = await restCall(h.server.url, h.project.secret, "GET", "/sources");
    expect(listed.status).toBe(200);
    expect(listed.body.sources).toEqual([added.data]);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_abcdefgh");
  });

  it("shows the header an hmac_sha256 source reads its signature from: x-signature by default (spec), else the one given", async () => {
    const plain = await mcpCall(h.client, "source_add", { type: "webhook", name: "hmac-default", verification: "hmac_sha256", secret: "abcdefgh12" });
    expect(plain).toMatchObject({ ok: true, data: { verification: "hmac_sha256", signature_header: "x-signature" } });
    const named = await mcpCall(h.client, "source_add", {
      type: "webhook",
      name: "hmac-named",
      verification: "hmac_sha256",
      secret: "abcdefgh12",
      signature_header: "X-Acme-Sig",
    });
    expect(named).toMatchObject({ ok: true, data: { signature_header: "x-acme-sig" } });
    const listed = await restCall(h.server.url, h.project.secret, "GET", "/sources");
    const byName = (n: string) => listed.body.sources.find((s: { name: string }) => s.name === n);
    expect(byName("hmac-default").signature_header).toBe("x-signature");
    expect(byName("hmac-named").signature_header).toBe("x-acme-sig");
    // Other verifications read their scheme's own headers: none is named here.
    const github = await mcpCall(h.client, "source_add", { type: "webhook", name: "gh", verification: "github", secret: "abcdefgh12" });
    expect(github).toMatchObject({ ok: true, data: { signature_header: null } });
  });

  it("adds an email source with the project address", async () => {
    const added = await restCall(h.server.url, h.project.secret, "POST", "/sources", { type: "email", name: "email" });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ type: "email", url: null, verification: null });
    // The project's default mailbox on the mail domain: mail sent there becomes email.received events.
    expect(added.body.address).toMatch(/^[a-z0-9-]+@brynth\.localhost$/);
    const second = await restCall(h.server.url, h.project.secret, "POST", "/sources", { type: "email", name: "email2" });
    expect(second.status).toBe(409);
  });

  it("adds one email source when adds race: the others get CONFLICT", async () => {
    const other = (await seedProject({ name: "email race" })).secret;
    const adds = await Promise.all(
      Array.from({ length: 10 }, (_, i) => restCall(h.server.url, other, "POST", "/sources", { type: "email", name: `email${i}` })),
    );
    expect(adds.filter((a) => a.status === 200)).toHaveLength(1);
    expect(adds.filter((a) => a.status !== 200).map((a) => a.body.error.code)).toEqual(Array(9).fill("CONFLICT"));
    const listed = await restCall(h.server.url, other, "GET", "/sources");
    expect(listed.body.sources.filter((s: { type: string }) => s.type === "email")).toHaveLength(1);
  });

  it("refuses a name that exists already (CONFLICT) and the reserved name brynth", async () => {
    await mcpCall(h.client, "source_add", { type: "webhook", name: "dup" });
    const again = await mcpCall(h.client, "source_add", { type: "webhook", name: "dup" });
    expect(again).toMatchObject({ ok: false, code: "CONFLICT" });
    const rest = await restCall(h.server.url, h.project.secret, "POST", "/sources", { type: "webhook", name: "dup" });
    expect(rest.status).toBe(409);
    const reserved = await mcpCall(h.client, "source_add", { type: "webhook", name: "brynth" });
    expect(reserved).toMatchObject({ ok: false, code: "validation_error" });
    expect(!reserved.ok && reserved.message).toMatch(/name: .*reserved/);
  });

  it("validates the fields each verification needs, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "webhook", name: "s1", verification: "stripe" }, "secret"],
      [{ type: "webhook", name: "s2", secret: "abcdefgh12" }, "secret"],
      [{ type: "webhook", name: "s3", verification: "github", secret: "abcdefgh12", signature_header: "x-sig" }, "signature_header"],
      [{ type: "webhook", name: "s4", verification: "standard_webhooks", secret: "not-a-whsec" }, "secret"],
      [{ type: "webhook", name: "s5", verification: "hmac_sha256", secret: "abcdefgh12", signature_header: "bad header!" }, "signature_header"],
      [{ type: "webhook", name: "Upper Case" }, "name"],
      [{ type: "email", name: "mail", verification: "stripe" }, "verification"],
      [{ type: "ftp", name: "s6" }, "type"],
    ];
    for (const [args, field] of cases) {
      const res = await mcpCall(h.client, "source_add", args);
      expect(res, JSON.stringify(args)).toMatchObject({ ok: false, code: "validation_error" });
      expect(!res.ok && res.message, JSON.stringify(args)).toContain(`${field}:`);
    }
  });

  it("refuses a secret with a leading or trailing space or line break, saying why", async () => {
    const secrets = ["whsec_abcdefgh\n", "whsec_abcdefgh ", " whsec_abcdefgh", "whsec_abcdefgh\r\n", "\twhsec_abcdefgh"];
    for (const [i, s] of secrets.entries()) {
      const args = { type: "webhook", name: `ws${i}`, verification: "stripe", secret: s };
      const res = await mcpCall(h.client, "source_add", args);
      expect(res, JSON.stringify(s)).toMatchObject({ ok: false, code: "validation_error" });
      expect(!res.ok && res.message, JSON.stringify(s)).toMatch(/secret: .*leading or trailing space or line break.*never match/);
      const rest = await restCall(h.server.url, h.project.secret, "POST", "/sources", args);
      expect(rest.status, JSON.stringify(s)).toBe(400);
      expect(rest.body.error.message).toMatch(/secret: .*leading or trailing space or line break/);
    }
    // Spaces inside the secret are the provider's business.
    expect((await mcpCall(h.client, "source_add", { type: "webhook", name: "ws-inner", verification: "github", secret: "gh secret 123" })).ok).toBe(true);
  });

  it("removes a source by name; a second removal is NOT_FOUND; the name can be reused", async () => {
    await mcpCall(h.client, "source_add", { type: "webhook", name: "temp" });
    const removed = await restCall(h.server.url, h.project.secret, "DELETE", "/sources/temp");
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ removed: true, name: "temp" });
    const again = await restCall(h.server.url, h.project.secret, "DELETE", "/sources/temp");
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("NOT_FOUND");
    const listed = await mcpCall(h.client, "source_list");
    expect(listed.ok && listed.data.sources.map((s: { name: string }) => s.name)).not.toContain("temp");
    expect((await mcpCall(h.client, "source_add", { type: "webhook", name: "temp" })).ok).toBe(true);
  });
});
