import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { getDraft } from "@/lib/tools/mailboxes/get-draft";
import { sendDraft } from "@/lib/tools/mailboxes/send-draft";
import { actorOf, call, refusal } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/** Approving and rejecting a held draft by its id over owner REST (design Appendix B), as a script would. */
let client: Awaited<ReturnType<typeof ownerClient>>;
let box: Awaited<ReturnType<typeof seedMailbox>>;
let to: Awaited<ReturnType<typeof seedMailbox>>;
let agent: ReturnType<typeof actorOf>;

beforeAll(async () => {
  client = await ownerClient("Owner drafts");
  box = await seedMailbox(client.seeded.project.id);
  to = await seedMailbox(client.seeded.project.id);
  agent = actorOf(client.seeded.key, client.seeded.project.name, "mcp");
  await (await getDb()).update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
});
afterAll(async () => {
  await client.server.close();
});

/** A draft the agent tried to send, now awaiting the owner. */
async function heldDraft(subject: string): Promise<string> {
  const d = await call(createDraft, agent, { inboxId: box.id, to: [to.address], subject, text: "as shown" });
  expect((await refusal(sendDraft, agent, { inboxId: box.id, draftId: d.draft_id })).code).toBe("approval_required");
  return d.draft_id;
}

describe("owner REST: /owner/drafts/{draft_id}/approve and /reject", () => {
  it("approves a held draft: exactly it is sent, and the answer names the message", async () => {
    const id = await heldDraft("Approve me over REST");
    // How a script finds what waits for it: the drafts route, with the owner's credentials.
    const waiting = await client.call("GET", "/drafts?labels=pending_approval");
    expect(waiting.body.drafts.map((d: { draft_id: string }) => d.draft_id)).toEqual([id]);
    const res = await client.call("POST", `/owner/drafts/${id}/approve`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ draft_id: id, request_id: expect.stringMatching(/^req_/), message_id: expect.stringMatching(/^msg_/), send_reason: null });
    expect((await refusal(getDraft, agent, { inboxId: box.id, draftId: id })).code).toBe("NOT_FOUND");
    // The request decided, as the Approvals screen's decision names it (it named the draft, so a search missed it).
    expect((await client.entry("request.decide"))?.subject).toBe(res.body.request_id);
  });

  it("rejects with a comment the agent reads as send_reason; a second decision is a CONFLICT", async () => {
    const id = await heldDraft("Reject me over REST");
    const res = await client.call("POST", `/owner/drafts/${id}/reject`, { comment: "Wrong customer." });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ draft_id: id, message_id: null, send_status: "rejected", send_reason: "Wrong customer." });
    expect(await call(getDraft, agent, { inboxId: box.id, draftId: id })).toMatchObject({ send_status: "rejected", send_reason: "Wrong customer." });
    const again = await client.call("POST", `/owner/drafts/${id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`Draft ${id} is not awaiting approval (send_status rejected).`);
  });

  it("refuses a draft that is not held, a missing one and a malformed id, changing nothing", async () => {
    const plain = await call(createDraft, agent, { inboxId: box.id, to: [to.address], subject: "Just a draft", text: "x" });
    const notHeld = await client.call("POST", `/owner/drafts/${plain.draft_id}/reject`, {});
    expect(notHeld.status).toBe(409);
    expect(notHeld.body.error.message).toContain("send_status null");
    expect(await call(getDraft, agent, { inboxId: box.id, draftId: plain.draft_id })).toMatchObject({ send_status: null });
    const missing = await client.call("POST", "/owner/drafts/drf_nothere1/approve", {});
    expect(missing.status).toBe(404);
    const bad = await client.call("POST", "/owner/drafts/msg_abc/approve", {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/draft_id/);
    const long = await client.call("POST", `/owner/drafts/${plain.draft_id}/reject`, { comment: "x".repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/comment/);
  });
});
