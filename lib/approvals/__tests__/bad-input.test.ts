import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalChannels, approvalRequests } from "@/lib/db/schema/approvals";
import { newId } from "@/lib/ids";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";

const { h, call } = approvalsHarness();

const base = { action: "refund", summary: "Refund order 1042?", wait_seconds: 0 };

/** Every refused input is a validation_error naming its field, and writes no request. */
async function refused(tool: string, args: Record<string, unknown>, field: string | RegExp) {
  const db = await getDb();
  const before = (await db.select({ id: approvalRequests.id }).from(approvalRequests).where(eq(approvalRequests.projectId, h.seeded.project.id))).length;
  const r = await call(tool, args);
  expect(r).toMatchObject({ ok: false, code: "validation_error" });
  if (!r.ok) expect(r.message).toMatch(field);
  const after = (await db.select({ id: approvalRequests.id }).from(approvalRequests).where(eq(approvalRequests.projectId, h.seeded.project.id))).length;
  expect(after).toBe(before);
}

describe("bad input to ask_approval and ask_human", () => {
  it("refuses risk high without details", async () => {
    await refused("ask_approval", { ...base, risk: "high" }, /details: is required when risk is high/);
    const ok = await call("ask_approval", { ...base, risk: "high", details: "Refund 30 € to the card of order 1042. Cannot be undone." });
    expect(ok.ok).toBe(true);
  });

  it("refuses six options, an option over 40 characters, and repeated options", async () => {
    await refused("ask_approval", { ...base, options: ["a", "b", "c", "d", "e", "f"] }, /options: at most 5 options/);
    await refused("ask_approval", { ...base, options: ["x".repeat(41)] }, /options\.0: each option is at most 40 characters/);
    await refused("ask_human", { question: "Which?", options: ["Yes", "yes"], wait_seconds: 0 }, /options: options must differ/);
    expect((await call("ask_approval", { ...base, options: ["x".repeat(40), "b", "c", "d", "e"] })).ok).toBe(true);
  });

  it("refuses wait_seconds 121 and -1", async () => {
    await refused("ask_approval", { ...base, wait_seconds: 121 }, /wait_seconds/);
    await refused("ask_human", { question: "Which?", wait_seconds: -1 }, /wait_seconds/);
  });

  it("refuses expires_in 0m, 8d and other shapes", async () => {
    await refused("ask_approval", { ...base, expires_in: "0m" }, /expires_in: must be from 1m to 7d/);
    await refused("ask_approval", { ...base, expires_in: "8d" }, /expires_in: must be from 1m to 7d/);
    await refused("ask_approval", { ...base, expires_in: "169h" }, /expires_in: must be from 1m to 7d/);
    await refused("ask_human", { question: "Which?", expires_in: "90s" }, /expires_in: must be `<n>m`/);
    const asked = Date.now();
    const week = await call("ask_approval", { ...base, expires_in: "7d" });
    const answered = Date.now();
    // Seven days from when the request was made, which lies between the two readings of the clock.
    const expiresAt = week.ok ? new Date(week.data.expires_at).getTime() : 0;
    expect(expiresAt).toBeGreaterThanOrEqual(asked + 7 * 86400_000);
    expect(expiresAt).toBeLessThanOrEqual(answered + 7 * 86400_000);
  });

  it("refuses an unknown approver channel and an inactive one", async () => {
    await refused("ask_approval", { ...base, approvers: ["chn_unknown123"] }, /approvers\.0: chn_unknown123 is not a channel of this project/);
    const db = await getDb();
    const id = newId("chn");
    await db
      .insert(approvalChannels)
      .values({ id, projectId: h.seeded.project.id, kind: "email", label: "mario", address: "mario@example.com", status: "awaiting_approval" });
    await refused(
      "ask_human",
      { question: "Which?", wait_seconds: 0, approvers: [id] },
      new RegExp(`approvers\\.0: ${id} \\(mario\\) is not active: awaiting approval`),
    );
    await refused("ask_approval", { ...base, approvers: ["mario"] }, /approvers\.0: must be a channel id/);
    const owner = ok(await call("channel_list")).channels[0].id;
    expect((await call("ask_approval", { ...base, approvers: [owner] })).ok).toBe(true);
  });

  it("refuses a callback_url to a private address, over http, or with credentials", async () => {
    for (const url of [
      "https://10.0.0.5/hook",
      "https://127.0.0.1/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://[fd00::1]/hook",
      "https://192.168.1.1/hook",
      "https://localhost/hook",
      "https://metadata.google.internal/x",
    ]) {
      await refused("ask_approval", { ...base, callback_url: url }, /callback_url: must/);
    }
    await refused("ask_approval", { ...base, callback_url: "http://example.com/hook" }, /callback_url: must be an https URL/);
    await refused("ask_human", { question: "Which?", callback_url: "https://u:p@example.com/hook" }, /callback_url: must not carry credentials/);
    await refused("ask_human", { question: "Which?", callback_url: "not a url" }, /callback_url: must be an absolute URL/);
  });

  it("refuses a callback_url on a mail or database port, as webhook URLs are", async () => {
    for (const port of [25, 465, 587, 110, 143, 6379]) {
      await refused("ask_approval", { ...base, callback_url: `https://example.com:${port}/hook` }, new RegExp(`callback_url: must not use port ${port}`));
    }
    expect((await call("ask_approval", { ...base, callback_url: "https://example.com:8443/hook" })).ok).toBe(true);
  });

  it("refuses a summary of more than one line and unknown arguments", async () => {
    await refused("ask_approval", { ...base, summary: "Refund?\nAlso delete the account" }, /summary: must be one line/);
    await refused("ask_approval", { ...base, amount_eur: 30 }, /Unknown argument: amount_eur/);
  });
});

describe("bad input to policy_set", () => {
  it("refuses a malformed policy with an error naming the rule", async () => {
    const r = await call("policy_set", {
      policy: {
        rules: [
          { id: "small-refunds", action: "refund", amount_lte: 50, effect: "auto_approve" },
          { id: "big", effect: "yes please" },
        ],
      },
      wait_seconds: 0,
    });
    expect(r).toMatchObject({ ok: false, code: "validation_error" });
    if (!r.ok) expect(r.message).toMatch(/rule 2 "big": effect/);
    const missing = await call("policy_set", { wait_seconds: 0 });
    expect(missing).toMatchObject({ ok: false, code: "validation_error" });
    const unknownChannel = await call("policy_set", {
      policy: { rules: [{ id: "to-mario", effect: "require_approval", approvers: ["chn_nobody"] }] },
      wait_seconds: 0,
    });
    expect(unknownChannel).toMatchObject({ ok: false, code: "validation_error" });
    if (!unknownChannel.ok) expect(unknownChannel.message).toMatch(/rule 1 "to-mario": approvers: chn_nobody is not a channel/);
    await refused("policy_set", { policy: { rules: [] }, note: "x".repeat(501) }, /note/);
  });
});
