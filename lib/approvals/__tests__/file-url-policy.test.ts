import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { diskLinks } from "@/lib/db/schema/disk";
import { createLink } from "@/lib/disk/create-link";
import { saveAttachment } from "@/lib/disk/save-attachment";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedKey } from "@/lib/testing/seed";
import { mcpCall } from "@/lib/tools/events/__tests__/tool-client";
import { approvalsHarness, ok, sleep } from "@/lib/approvals/__tests__/helpers";

const { h, call, decide, setPolicy } = approvalsHarness();

beforeAll(async () => {
  ok(await call("file_put", { path: "reports/q3.pdf", content_base64: Buffer.from("%PDF q3").toString("base64"), content_type: "application/pdf" }));
});

describe("file_url under the policy", () => {
  it("gives the link at once without a policy", async () => {
    const r = ok(await call("file_url", { path: "reports/q3.pdf" }));
    expect(r.url).toMatch(/\/blob\/link\//);
  });

  it("answers POLICY_DENIED under a deny rule", async () => {
    await setPolicy([{ id: "no-public-links", tool: "file_url", effect: "deny" }]);
    expect(await call("file_url", { path: "reports/q3.pdf" })).toMatchObject({ ok: false, code: "POLICY_DENIED" });
  });

  it("asks a person, then gives exactly one link for the approved path, expiry and key", async () => {
    await setPolicy([{ id: "links-need-ok", tool: "file_url", effect: "require_approval" }]);
    const first = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 600, wait_seconds: 0 }));
    expect(first).toMatchObject({ status: "pending" });
    const id = first.request_id as string;
    const [row] = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.id, id));
    expect(row).toMatchObject({ kind: "tool", action: "file_url", rule: "links-need-ok", summary: "Create a public link to reports/q3.pdf for 10 minutes?" });

    expect(ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 600, approval: id, wait_seconds: 0 }))).toMatchObject({
      status: "pending",
      request_id: id,
    });
    // Not the call that was shown: another expiry, another path, another key.
    expect(await call("file_url", { path: "reports/q3.pdf", expires_in: 3600, approval: id, wait_seconds: 0 })).toMatchObject({
      ok: false,
      code: "validation_error",
    });
    expect(await call("file_url", { path: "reports/other.pdf", expires_in: 600, approval: id, wait_seconds: 0 })).toMatchObject({
      ok: false,
      code: "validation_error",
    });
    const other = await seedKey(h.seeded.project.id, ["disk"], "other disk key");
    const otherClient = (await connectMcp(h.url, other.secret)).client;
    expect(await mcpCall(otherClient, "file_url", { path: "reports/q3.pdf", expires_in: 600, approval: id, wait_seconds: 0 })).toMatchObject({
      ok: false,
      code: "forbidden",
    });
    await otherClient.close();

    await decide(id, { outcome: "approve" });
    const link = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 600, approval: id }));
    expect(link.url).toMatch(/\/blob\/link\//);
    expect(await call("file_url", { path: "reports/q3.pdf", expires_in: 600, approval: id })).toMatchObject({ ok: false, code: "CONFLICT" });
  });

  it("returns the link in the same call when the person approves during the wait", async () => {
    const pending = call("file_url", { path: "reports/q3.pdf", wait_seconds: 30 });
    let id: string | undefined;
    for (let i = 0; i < 100 && !id; i++) {
      await sleep(50);
      const rows = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.status, "pending"));
      id = rows.find((r) => r.action === "file_url" && (r.payload as { expires_in: number }).expires_in === 3600)?.id;
    }
    await decide(id!, { outcome: "approve" });
    const r = ok(await pending);
    expect(r.url).toMatch(/\/blob\/link\//);
    const [row] = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.id, id!));
    expect(row.consumedAt).not.toBeNull();
  });

  it("answers NOT_FOUND for a missing file before asking anyone", async () => {
    const db = await getDb();
    const asked = async () => (await db.select().from(approvalRequests).where(eq(approvalRequests.action, "file_url"))).length;
    const before = await asked();
    // Asked first, a person would approve a link to nothing, and the agent would learn of its typo only afterwards.
    expect(await call("file_url", { path: "reports/q4.pdf", wait_seconds: 0 })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await call("file_url", { path: "evt_0123/missing.pdf", wait_seconds: 0 })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await asked()).toBe(before);
  });

  it("is cancelled with the comment when the person denies", async () => {
    const first = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 120, wait_seconds: 0 }));
    await decide(first.request_id as string, { outcome: "deny", comment: "Not public, send it by email." });
    const r = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 120, approval: first.request_id }));
    expect(r).toMatchObject({ status: "cancelled", request_id: first.request_id, comment: "Not public, send it by email." });
  });

  it("is cancelled once its request is past its expiry, even before the expiry sweep has run", async () => {
    const first = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 180, wait_seconds: 0 }));
    const id = first.request_id as string;
    await (await getDb())
      .update(approvalRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(approvalRequests.id, id));
    // Without a wait the call read the row as stored: `pending`, though nobody can decide it any more.
    const r = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 180, approval: id, wait_seconds: 0 }));
    expect(r).toMatchObject({ status: "cancelled", request_id: id, comment: "Nobody decided before the request expired." });
  });

  it("gives no link under an approval once the file was replaced: the person approved sharing the file as it was", async () => {
    await setPolicy([{ id: "links-need-ok", tool: "file_url", effect: "require_approval" }]);
    const put = (text: string) => call("file_put", { path: "reports/q2.pdf", content_base64: Buffer.from(text).toString("base64") });
    ok(await put("%PDF q2, as reviewed"));
    const id = ok(await call("file_url", { path: "reports/q2.pdf", expires_in: 900, wait_seconds: 0 })).request_id as string;
    await decide(id, { outcome: "approve" });
    ok(await put("%PDF everything else"));
    const r = ok(await call("file_url", { path: "reports/q2.pdf", expires_in: 900, approval: id }));
    expect(r).toMatchObject({ status: "cancelled", request_id: id });
    expect(r.comment).toMatch(/reports\/q2\.pdf was replaced/);
    expect(r.url).toBeUndefined();
    const db = await getDb();
    expect((await db.select().from(diskLinks).where(eq(diskLinks.path, "reports/q2.pdf"))).length).toBe(0);
    expect((await db.select().from(approvalRequests).where(eq(approvalRequests.id, id)))[0].consumedAt).toBeNull();
    // Replaced between that check and the link's own transaction: refused there too.
    const made = createLink(db, { actor: h.seeded.actor, path: "reports/q2.pdf", expiresIn: 900, fileId: "fil_asked0000" });
    await expect(made).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("gives no link to a file under an approval asked before requests named the file version, and says to ask again", async () => {
    await setPolicy([{ id: "links-need-ok", tool: "file_url", effect: "require_approval" }]);
    const db = await getDb();
    /** A request as file_url asked before a4e4056: its payload names path, expiry and key, no file_id. */
    const askUnversioned = async (path: string, expiresIn: number) => {
      const id = ok(await call("file_url", { path, expires_in: expiresIn, wait_seconds: 0 })).request_id as string;
      const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, id));
      const { file_id, ...before } = row.payload as Record<string, unknown>;
      expect(file_id).toBeDefined();
      await db.update(approvalRequests).set({ payload: before }).where(eq(approvalRequests.id, id));
      return id;
    };
    const id = await askUnversioned("reports/q3.pdf", 1200);
    // Pending, it answers pending as any request does, not a validation_error about its arguments.
    expect(ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 1200, approval: id, wait_seconds: 0 }))).toMatchObject({
      status: "pending",
      request_id: id,
    });
    await decide(id, { outcome: "approve" });
    const r = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 1200, approval: id }));
    expect(r).toMatchObject({ status: "cancelled", request_id: id });
    expect(r.comment).toMatch(/before approvals named the file's version.*reports\/q3\.pdf.*Make a new call without approval/);
    expect(r.url).toBeUndefined();
    expect((await db.select().from(approvalRequests).where(eq(approvalRequests.id, id)))[0].consumedAt).toBeNull();
    // Other arguments are still refused as for any approval.
    expect(await call("file_url", { path: "reports/q3.pdf", expires_in: 60, approval: id })).toMatchObject({ ok: false, code: "validation_error" });

    // An inbound attachment has one version only: its unversioned approval still gives the link.
    await db.transaction((tx) =>
      saveAttachment(tx, { projectId: h.seeded.project.id, eventId: "evt_unversioned", name: "scan.pdf", bytes: Buffer.from("%PDF scan") }),
    );
    const attachment = await askUnversioned("evt_unversioned/scan.pdf", 1200);
    await decide(attachment, { outcome: "approve" });
    expect(ok(await call("file_url", { path: "evt_unversioned/scan.pdf", expires_in: 1200, approval: attachment })).url).toMatch(/\/blob\/link\//);
  });

  it("resumes an approval asked before paths were NFC (0029) under either spelling of its decomposed path", async () => {
    await setPolicy([{ id: "links-need-ok", tool: "file_url", effect: "require_approval" }]);
    const db = await getDb();
    const nfd = "reports/cafe\u0301.pdf";
    ok(await call("file_put", { path: nfd, content_base64: Buffer.from("%PDF café").toString("base64") }));
    const id = ok(await call("file_url", { path: nfd, expires_in: 1500, wait_seconds: 0 })).request_id as string;
    // Asked before 7f788b0, the request names the path as the call spelled it (decomposed, as a macOS client sends it).
    const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, id));
    const payload = row.payload as Record<string, unknown>;
    expect(payload.path).toBe("reports/caf\u00e9.pdf");
    await db
      .update(approvalRequests)
      .set({ payload: { ...payload, path: nfd } })
      .where(eq(approvalRequests.id, id));
    // The same call today, and the same call by the name the file is now listed under: both are the call that asked.
    expect(ok(await call("file_url", { path: "reports/caf\u00e9.pdf", expires_in: 1500, approval: id, wait_seconds: 0 }))).toMatchObject({
      status: "pending",
      request_id: id,
    });
    await decide(id, { outcome: "approve" });
    expect(ok(await call("file_url", { path: nfd, expires_in: 1500, approval: id })).url).toMatch(/\/blob\/link\//);
    // Another file is still another call.
    const other = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 1600, wait_seconds: 0 })).request_id as string;
    expect(await call("file_url", { path: nfd, expires_in: 1600, approval: other, wait_seconds: 0 })).toMatchObject({ ok: false, code: "validation_error" });
  });

  it("auto_approve records the approval and gives the link", async () => {
    await setPolicy([{ id: "links-ok", tool: "file_url", effect: "auto_approve" }]);
    const r = ok(await call("file_url", { path: "reports/q3.pdf", expires_in: 60 }));
    expect(r.url).toMatch(/\/blob\/link\//);
    const rows = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.rule, "links-ok"));
    expect(rows[0]).toMatchObject({ status: "approved", decidedBy: "policy:links-ok" });
  });
});
