import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { startSink } from "@/lib/mail/__tests__/helpers";
import { approveChannel } from "@/lib/channels/approve-channel";
import { confirmEmailChannel } from "@/lib/channels/verify-link";
import { emailLinkView } from "@/lib/approvals/email-links";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";

/** Decisions posted by whoever holds an emailed link: the form is theirs to fill with anything. */
const { h, call } = approvalsHarness();
let sink: Awaited<ReturnType<typeof startSink>>;
let channelId: string;
const ADDRESS = "hostile.decider@example.com";

/** The newest message the relay received for `to`, and the Brynth link in it. */
async function lastLink(to: string, path: "verify" | "decide") {
  await drainJobs();
  const got = [...sink.received].reverse().find((m) => m.to.includes(to));
  if (!got) throw new Error(`no mail to ${to}`);
  const parsed = await simpleParser(got.raw);
  return new RegExp(`/${path}/([A-Za-z0-9]+)`).exec(parsed.text ?? "")?.[1] ?? "";
}

beforeAll(async () => {
  sink = await startSink();
  process.env.SMTP_RELAY_URL = sink.url;
  resetEnvCache();
  channelId = ok(await call("channel_add", { kind: "email", address: ADDRESS, label: "hostile" })).channel_id;
  const token = await lastLink(ADDRESS, "verify");
  const db = await getDb();
  await db.transaction((tx) => confirmEmailChannel(tx, token));
  await db.transaction((tx) => approveChannel(tx, { actor: h.seeded.actor, channelId }));
});
afterAll(async () => {
  closeRelayTransports();
  await sink.close();
  delete process.env.SMTP_RELAY_URL;
  resetEnvCache();
});

/** The page's form POST, over the real server, with a body written by hand. */
const submit = (token: string, body: string) =>
  fetch(`${h.url}/decide/${token}/submit`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { origin: h.url, "content-type": "application/x-www-form-urlencoded" },
  });

describe("emailed decision links, hostile forms", () => {
  it("sends a form whose comment, answer or context holds a NUL back to the page, decides nothing, and then takes a clean answer", async () => {
    const approval = ok(await call("ask_approval", { action: "refund", summary: "Refund order 77?", wait_seconds: 0, approvers: [channelId] }));
    const approvalToken = await lastLink(ADDRESS, "decide");
    const question = ok(await call("ask_human", { question: "Which carrier?", wait_seconds: 0, approvers: [channelId] }));
    const questionToken = await lastLink(ADDRESS, "decide");

    for (const [token, body] of [
      [approvalToken, "choice=approve&comment=fine%00"],
      [approvalToken, "choice=deny&comment=%00"],
      [approvalToken, "choice=needs_context&comment=which%00order"],
      [questionToken, "choice=answer&text=DHL%00"],
      [questionToken, "choice=answer&text=DHL&comment=%00"],
    ]) {
      const res = await submit(token, body);
      expect(res.status, body).toBe(303);
      expect(res.headers.get("location"), body).toBe(`/decide/${token}?error=incomplete`);
    }
    // Nothing was decided and neither link was spent.
    expect(ok(await call("request_status", { request_id: approval.request_id })).status).toBe("pending");
    expect(ok(await call("request_status", { request_id: question.request_id })).status).toBe("pending");
    const db = await getDb();
    expect((await emailLinkView(db, approvalToken)).state).toBe("open");

    expect((await submit(questionToken, "choice=answer&text=DHL")).headers.get("location")).toBe(`/decide/${questionToken}`);
    expect(ok(await call("request_status", { request_id: question.request_id }))).toMatchObject({ status: "answered", decision: "DHL" });
  });

  it("takes a comment and an answer as long as the page's text boxes allow, though the browser posts each line break as CRLF", async () => {
    // A textarea's maxlength counts a line break once, the posted form twice (HTML form encoding writes CRLF).
    const lines = (n: number) => Array.from({ length: n }, () => "x".repeat(19)).join("\n");
    const posted = (text: string) => encodeURIComponent(text.replaceAll("\n", "\r\n"));
    const comment = lines(100);
    const answer = lines(200);
    expect([comment.length, answer.length]).toEqual([1999, 3999]);
    const r = ok(await call("ask_approval", { action: "refund", summary: "Refund order 79?", wait_seconds: 0, approvers: [channelId] }));
    const token = await lastLink(ADDRESS, "decide");
    expect((await submit(token, `choice=deny&comment=${posted(comment)}`)).headers.get("location")).toBe(`/decide/${token}`);
    expect(ok(await call("request_status", { request_id: r.request_id }))).toMatchObject({ status: "denied", comment });
    const q = ok(await call("ask_human", { question: "Which carrier?", wait_seconds: 0, approvers: [channelId] }));
    const questionToken = await lastLink(ADDRESS, "decide");
    expect((await submit(questionToken, `choice=answer&text=${posted(answer)}`)).headers.get("location")).toBe(`/decide/${questionToken}`);
    expect(ok(await call("request_status", { request_id: q.request_id }))).toMatchObject({ status: "answered", decision: answer });
  });

  it("applies one of three racing posts of the same link", async () => {
    const r = ok(await call("ask_approval", { action: "refund", summary: "Refund order 78?", wait_seconds: 0, approvers: [channelId] }));
    const token = await lastLink(ADDRESS, "decide");
    const answers = await Promise.all([submit(token, "choice=approve"), submit(token, "choice=deny"), submit(token, "choice=approve")]);
    const places = answers.map((a) => a.headers.get("location"));
    expect(places.filter((p) => p === `/decide/${token}`)).toHaveLength(1);
    expect(places.filter((p) => p === `/decide/${token}?error=forbidden`)).toHaveLength(2);
    expect(["approved", "denied"]).toContain(ok(await call("request_status", { request_id: r.request_id })).status);
  });
});
