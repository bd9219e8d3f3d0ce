import { afterAll, beforeAll, expect, it } from "vitest";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { envSettings } from "@/lib/testing/env-settings";
import { approvalsHarness, ok, relaySink } from "@/lib/approvals/__tests__/helpers";

/**
 * channel_add {kind: email} mails a verification link, with the agent's label, to an address the agent chose, and
 * channel_remove frees the place again: in a loop, an agent mailed any stranger without bound (only the call rate
 * held it), outside EMAIL_DAILY_LIMIT. An agent's verification mail now counts toward the project's quota.
 */
const mail = envSettings("EMAIL_");
beforeAll(() => mail.set({ EMAIL_DAILY_LIMIT: "3", EMAIL_MONTHLY_LIMIT: "3" }));
afterAll(() => mail.restore());
const { call } = approvalsHarness();
const sink = relaySink();

it("an agent's channel verification mail counts toward the project's send quota", async () => {
  const victim = "stranger@example.org";
  ok(await call("email_send", { to: [victim], subject: "hi", text: "x", wait_seconds: 0 }));
  const tries = [];
  for (let i = 0; i < 6; i++) {
    const added = await call("channel_add", { kind: "email", address: victim, label: `Buy cheap pills at spam.example ${i}` });
    tries.push(added.ok ? "ok" : added.code);
    if (added.ok) ok(await call("channel_remove", { channel_id: added.data.channel_id }));
  }
  expect(tries).toEqual(["ok", "ok", "QUOTA_EXCEEDED", "QUOTA_EXCEEDED", "QUOTA_EXCEEDED", "QUOTA_EXCEEDED"]);
  expect(await call("email_send", { to: [victim], subject: "again", text: "x", wait_seconds: 0 })).toMatchObject({ ok: false, code: "QUOTA_EXCEEDED" });
  await drainJobs();
  const verifications = sink.received.filter((m) => m.to.includes(victim) && m.raw.includes("Confirm this address"));
  expect(verifications).toHaveLength(2);
});

// Within the project's quota, channel_add then channel_remove mailed one stranger again and again (note-36).
it("an agent sends one address at most three verification mails a day, however often it removes the channel", async () => {
  mail.set({ EMAIL_DAILY_LIMIT: "100", EMAIL_MONTHLY_LIMIT: "100" });
  const victim = "again@example.org";
  const tries: string[] = [];
  for (let i = 0; i < 5; i++) {
    const added = await call("channel_add", { kind: "email", address: victim, label: `try ${i}` });
    tries.push(added.ok ? "ok" : added.code);
    if (added.ok) ok(await call("channel_remove", { channel_id: added.data.channel_id }));
    else expect(added.message).toMatch(/3 verification emails in the last 24 hours.*after \d{4}-/);
  }
  expect(tries).toEqual(["ok", "ok", "ok", "QUOTA_EXCEEDED", "QUOTA_EXCEEDED"]);
  // Another address is its own count.
  ok(await call("channel_add", { kind: "email", address: "someone-else@example.org" }));
  await drainJobs();
  expect(sink.received.filter((m) => m.to.includes(victim) && m.raw.includes("Confirm this address"))).toHaveLength(3);
});
