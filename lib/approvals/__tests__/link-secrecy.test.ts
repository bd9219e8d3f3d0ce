import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { approveChannel } from "@/lib/channels/approve-channel";
import { confirmEmailChannel } from "@/lib/channels/verify-link";
import { WITHHELD } from "@/lib/mail/send-system-email";
import { approvalsHarness, ok, relaySink } from "@/lib/approvals/__tests__/helpers";

/**
 * The links in Brynth's own mail (an approval's decide link, a channel's verification link) reach their recipient
 * and nobody else. They were stored in the project mailbox's sent copy, where an agent read one with get_message and
 * approved its own request.
 */
const { h, call } = approvalsHarness();
const sink = relaySink();

/** The token of the last link of `kind` the sink received (quoted-printable soft breaks undone). */
function receivedToken(kind: "verify" | "decide"): string {
  const raw = sink.received.map((m) => m.raw.toString("utf8").replace(/=\r\n/g, "")).join("\n");
  const all = [...raw.matchAll(new RegExp(`/${kind}/([0-9A-Za-z]{16,})`, "g"))];
  expect(all.length, `a ${kind} link reached the recipient`).toBeGreaterThan(0);
  return all[all.length - 1][1];
}

/** Everything an agent can read of the project mailbox's messages, and the rows behind previews and events. */
async function agentView(inboxId: string): Promise<string> {
  const listed = ok(await call("list_messages", { inboxId, limit: 100 })).messages as { message_id: string; thread_id: string }[];
  const read = await Promise.all(listed.map((m) => call("get_message", { inboxId, messageId: m.message_id })));
  const threads = await Promise.all([...new Set(listed.map((m) => m.thread_id))].map((threadId) => call("get_thread", { threadId })));
  const raw = await Promise.all(
    listed.map(async (m) => {
      const res = await fetch(`${h.url}/api/v1/inboxes/${inboxId}/messages/${m.message_id}/raw`, { headers: { authorization: `Bearer ${h.seeded.secret}` } });
      return `${res.status} ${await res.text()}`;
    }),
  );
  const db = await getDb();
  const projectId = h.seeded.project.id;
  const rows = await Promise.all([
    db.select().from(mailMessages).where(eq(mailMessages.projectId, projectId)),
    db.select().from(mailThreads).where(eq(mailThreads.projectId, projectId)),
    db.select().from(mailEvents).where(eq(mailEvents.projectId, projectId)),
  ]);
  // The sealed column holds the body as sent, encrypted: left out, as nothing but composing reads it.
  const stored = rows.map((list) => list.map((r) => ({ ...r, sealedBodyEnc: undefined })));
  return JSON.stringify([listed, read, threads, raw, stored]);
}

describe("links in Brynth's own mail", () => {
  it("reach the recipient, while the sent copy agents read withholds them; the recipient's links still work", async () => {
    const channelId = ok(await call("channel_add", { kind: "email", address: "boss@example.com", label: "boss" })).channel_id as string;
    await drainJobs();
    const verifyToken = receivedToken("verify");
    const inboxId = ok(await call("list_inboxes", {})).inboxes[0].inbox_id as string;
    let seen = await agentView(inboxId);
    expect(seen).not.toContain(verifyToken);
    expect(seen).toContain(WITHHELD);

    const db = await getDb();
    await db.transaction((tx) => confirmEmailChannel(tx, verifyToken));
    await db.transaction((tx) => approveChannel(tx, { actor: h.seeded.actor, channelId }));
    const asked = ok(await call("ask_approval", { action: "wire", summary: "Wire 10k?", wait_seconds: 0, approvers: [channelId] }));
    await drainJobs();
    const decideToken = receivedToken("decide");
    seen = await agentView(inboxId);
    expect(seen).not.toContain(decideToken);
    expect(seen).not.toMatch(/\/decide\/[0-9A-Za-z]{16,}/);

    // The person's link decides.
    const decided = await fetch(`${h.url}/decide/${decideToken}/submit`, {
      method: "POST",
      body: "choice=approve",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: h.url },
    });
    expect(decided.status).toBeLessThan(400);
    expect(ok(await call("request_status", { request_id: asked.request_id })).status).toBe("approved");
  });

  // Found by helper-106: delivered to a mailbox of this instance, the links were in mail any agent with message_read
  // on it reads. An agent made an inbox, added a channel on it, verified it, and approved its own request that way.
  it("are withheld from mail to a mailbox on this instance, which agents read: a channel there cannot be verified by mail", async () => {
    const inbox = ok(await call("create_inbox", { username: `approver-${Date.now()}` }));
    ok(await call("channel_add", { kind: "email", address: inbox.email, label: "mario" }));
    await drainJobs();
    const listed = ok(await call("list_messages", { inboxId: inbox.inbox_id, limit: 10 })).messages as { message_id: string }[];
    expect(listed).toHaveLength(1);
    const received = ok(await call("get_message", { inboxId: inbox.inbox_id, messageId: listed[0].message_id }));
    expect(received.text).toContain(WITHHELD);
    expect(JSON.stringify(received)).not.toMatch(/\/verify\/[0-9A-Za-z]{16,}/);
    const raw = await fetch(`${h.url}/api/v1/inboxes/${inbox.inbox_id}/messages/${listed[0].message_id}/raw`, {
      headers: { authorization: `Bearer ${h.seeded.secret}` },
    });
    // Quoted-printable soft breaks undone, as receivedToken does.
    expect((await raw.text()).replace(/=\r\n/g, "")).not.toMatch(/\/verify\/[0-9A-Za-z]{16,}/);
  });
});
