import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { getDb } from "@/lib/db/client";
import { approvalChannels, approvalDeliveries } from "@/lib/db/schema/approvals";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { approveChannel } from "@/lib/channels/approve-channel";
import { verifyLinkView } from "@/lib/channels/verify-link";
import { postVerify } from "@/lib/channels/http/post-verify";
import { emailLinkView } from "@/lib/approvals/email-links";
import { postEmailDecision } from "@/lib/approvals/http/post-email-decision";
import { approvalsHarness, ok, relaySink } from "@/lib/approvals/__tests__/helpers";

const { h, call } = approvalsHarness();
const sink = relaySink();
let channelId: string;

/** The newest message the relay received for `to`, parsed, and the Brynth link in it. */
async function lastMail(to: string, path: "verify" | "decide") {
  await drainJobs();
  const got = [...sink.received].reverse().find((m) => m.to.includes(to));
  if (!got) throw new Error(`no mail to ${to}`);
  const parsed = await simpleParser(got.raw);
  const m = new RegExp(`/${path}/([A-Za-z0-9]+)`).exec(parsed.text ?? "");
  return { parsed, token: m?.[1] ?? "" };
}

const form = (fields: Record<string, string>, token: string) =>
  postEmailDecision(new Request(`${h.url}/decide/${token}/submit`, { method: "POST", body: new URLSearchParams(fields), headers: { origin: h.url } }), token);

describe("email channel", () => {
  it("is verified by a link whose page POSTs, then approved by the owner", async () => {
    const added = ok(await call("channel_add", { kind: "email", address: "Mario.Rossi@Example.com", label: "mario" }));
    expect(added).toMatchObject({ kind: "email", status: "unverified", address: "m***i@example.com", link: null });
    channelId = added.channel_id;
    const { parsed, token } = await lastMail("mario.rossi@example.com", "verify");
    expect(parsed.subject).toBe("Confirm this address for Brynth approvals");
    expect(parsed.headers.get("auto-submitted")).toBe("auto-generated");

    // Opening the link (GET) changes nothing: a scanner following it verifies nothing.
    expect(await verifyLinkView(await getDb(), token)).toEqual({ label: "mario", address: "m***i@example.com" });
    const [still] = await (await getDb()).select().from(approvalChannels).where(eq(approvalChannels.id, channelId));
    expect(still.status).toBe("unverified");

    const post = () => postVerify(new Request(`${h.url}/verify/${token}/confirm`, { method: "POST", headers: { origin: h.url } }), token);
    expect((await post()).headers.get("location")).toBe(`/verify/${token}?result=awaiting_approval`);
    expect((await post()).headers.get("location")).toBe(`/verify/${token}?result=invalid`);
    expect(await call("channel_add", { kind: "email", address: "mario.rossi@example.com" })).toMatchObject({ ok: false, code: "CONFLICT" });

    await (await getDb()).transaction((tx) => approveChannel(tx, { actor: h.seeded.actor, channelId }));
    const listed = ok(await call("channel_list")).channels.map((c: { kind: string; status: string }) => [c.kind, c.status]);
    expect(listed).toEqual([
      ["owner", "active"],
      ["email", "active"],
    ]);
  });

  it("refuses, naming address, an address the verification mail could not carry, and adds no channel", async () => {
    // Before: accepted by the schema, then refused by the mail under a field `to` that channel_add does not have.
    for (const address of [`${"x".repeat(65)}@example.com`, `a@${"b".repeat(64)}.com`, "Mario <mario@example.com>"]) {
      const refused = await call("channel_add", { kind: "email", address, label: "long" });
      expect(refused, address).toMatchObject({
        ok: false,
        code: "validation_error",
        message: expect.stringMatching(/^address: must be a plain ASCII address/),
      });
    }
    expect(ok(await call("channel_list")).channels.map((c: { label: string }) => c.label)).not.toContain("long");
  });

  it("sends each request with a link that opens a page; the POST from the page decides, once", async () => {
    const r = ok(
      await call("ask_approval", {
        action: "refund",
        summary: "Refund order 1042 (30 €)?",
        details: "Customer asked in ticket 881.",
        amount: 30,
        wait_seconds: 0,
      }),
    );
    const { parsed, token } = await lastMail("mario.rossi@example.com", "decide");
    expect(parsed.subject).toBe("Approval requested: Refund order 1042 (30 €)?");
    expect(parsed.text).toContain("Customer asked in ticket 881.");
    expect(parsed.html).toContain(`/decide/${token}`);

    const db = await getDb();
    expect((await emailLinkView(db, token)).state).toBe("open");
    const res = await form({ choice: "approve", comment: "Fine." }, token);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/decide/${token}`);
    expect(ok(await call("request_status", { request_id: r.request_id }))).toMatchObject({ status: "approved", decided_by: "channel:mario", comment: "Fine." });
    expect((await emailLinkView(db, token)).state).toBe("used");

    // A replayed POST decides nothing.
    expect((await form({ choice: "deny" }, token)).headers.get("location")).toBe(`/decide/${token}?error=forbidden`);
    expect(ok(await call("request_status", { request_id: r.request_id })).status).toBe("approved");
  });

  it("writes out the invisible characters of what the agent wrote, so a right-to-left override cannot turn the text", async () => {
    // Shown raw, "to <U+202E>b0B" reads as "to B0b" in a mail client.
    await call("ask_approval", { action: "pay", summary: "Pay 10 EUR to \u202Eb0B", details: "Invoice\u200B 12", wait_seconds: 0 });
    const { parsed } = await lastMail("mario.rossi@example.com", "decide");
    expect(parsed.subject).toBe("Approval requested: Pay 10 EUR to [U+202E]b0B");
    expect(parsed.text).toContain("Invoice[U+200B] 12");
    for (const part of [parsed.subject ?? "", parsed.text ?? "", String(parsed.html)]) expect(part).not.toMatch(/[\u202E\u200B\u2066]/);
  });

  it("refuses an expired link and the link of a removed channel", async () => {
    const r = ok(await call("ask_human", { question: "Which carrier?", options: ["DHL", "UPS"], wait_seconds: 0 }));
    const { token } = await lastMail("mario.rossi@example.com", "decide");
    const db = await getDb();
    await db.execute(sql`update approval_requests set expires_at = now() - interval '1 second' where id = ${r.request_id}`);
    expect((await emailLinkView(db, token)).state).toBe("expired");
    expect((await form({ choice: "option:1" }, token)).headers.get("location")).toBe(`/decide/${token}?error=ALREADY_DECIDED`);
    expect(ok(await call("request_status", { request_id: r.request_id })).status).toBe("expired");

    const q = ok(await call("ask_human", { question: "Ship today?", wait_seconds: 0 }));
    const second = await lastMail("mario.rossi@example.com", "decide");
    expect((await form({ choice: "answer", text: "" }, second.token)).headers.get("location")).toBe(`/decide/${second.token}?error=incomplete`);
    ok(await call("channel_remove", { channel_id: channelId }));
    expect((await emailLinkView(db, second.token)).state).toBe("invalid");
    expect((await form({ choice: "answer", text: "yes" }, second.token)).headers.get("location")).toBe(`/decide/${second.token}?error=forbidden`);
    expect(ok(await call("request_status", { request_id: q.request_id })).status).toBe("pending");
  });

  it("keeps the request when a channel's mail cannot go out", async () => {
    delete process.env.SMTP_RELAY_URL;
    resetEnvCache();
    const db = await getDb();
    const id = "chn_unreachable01";
    await db
      .insert(approvalChannels)
      .values({ id, projectId: h.seeded.project.id, kind: "email", label: "far", address: "far@elsewhere.example", status: "active" });
    const r = ok(await call("ask_approval", { action: "x", summary: "Reach far?", wait_seconds: 0, approvers: [id] }));
    expect(r.status).toBe("pending");
    const [d] = await db.select().from(approvalDeliveries).where(eq(approvalDeliveries.requestId, r.request_id));
    expect(d.sentAt).toBeNull();
    expect(d.lastError).toBeTruthy();
    process.env.SMTP_RELAY_URL = sink.url;
    resetEnvCache();
  });
});
