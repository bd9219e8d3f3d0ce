import { beforeEach, describe, expect, it, vi } from "vitest";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { seedProject } from "@/lib/testing/seed";

// Server actions are public endpoints: anyone with a session can POST one with any arguments (null, a string), not
// just what the form sends. The wrappers that read their input before its schema did (input.projectId,
// input.webhookId, form.get) threw a TypeError, which Next answers with a 500; now the input is the form's error.

const signedIn: { ctx: OwnerContext | null } = { ctx: null };
vi.mock("@/lib/auth/current-owner", async (real) => ({
  ...(await real<typeof import("@/lib/auth/current-owner")>()),
  currentOwner: async () => signedIn.ctx,
}));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));

const { deleteProjectAction } = await import("@/app/(dashboard)/settings/actions");
const { saveWebhookAction } = await import("@/app/(dashboard)/mail/webhooks/actions");
const { setupAction } = await import("@/app/(auth)/setup/actions");
const { saveKeyAction } = await import("@/app/(dashboard)/disk/actions");
const { decideAction } = await import("@/app/(dashboard)/approvals/actions");
const { requeueMatchingAction } = await import("@/app/(dashboard)/events/actions");

describe("server actions called with forged arguments", () => {
  beforeEach(async () => {
    const s = await seedProject({ name: `Forged ${Math.random().toString(36).slice(2, 8)}` });
    signedIn.ctx = { owner: s.owner, sessionId: "ses_test", project: s.project, projects: [s.project], actor: s.actor };
  });

  it("refuses a null or string input to Delete project as a form error", async () => {
    for (const input of [null, "prj_x", 42]) {
      const res = await deleteProjectAction(input as never);
      expect(res.ok).toBe(false);
    }
  });

  it("refuses a null or string input to Save webhook as a form error", async () => {
    for (const input of [null, "https://hooks.example.com/x"]) {
      const res = await saveWebhookAction(input as never);
      expect(res.ok).toBe(false);
    }
  });

  // Found by helper-101: an edit whose webhookId was "" took the create branch and made a second webhook and secret.
  it('refuses an edit of webhook "" by field instead of creating another webhook', async () => {
    const res = await saveWebhookAction({ webhookId: "", url: "https://hooks.example.com/x", eventTypes: ["message.received"], inboxIds: [] } as never);
    expect(res).toMatchObject({ ok: false, fieldErrors: { webhookId: expect.any(String) } });
    const { projectWebhooks } = await import("@/components/webhooks/owner-webhook-reads");
    const { getDb } = await import("@/lib/db/client");
    expect(await projectWebhooks(await getDb(), signedIn.ctx!.project.id)).toEqual([]);
  });

  // Found by helper-101: the action read a verdict as the emailed form's (every field sent, the outcome's own read),
  // so a condition typed beside an approval was dropped and the request approved; owner REST refuses it.
  it("refuses another outcome's field in a decision, as owner REST does, and decides nothing", async () => {
    const res = await decideAction({ requestId: "req_doesnotmatter", verdict: { outcome: "approve", text: "only up to 50 EUR" } as never });
    expect(res).toMatchObject({ ok: false });
    expect(JSON.stringify(res)).toContain("text");
  });

  // Owner REST parity (note-36): POST /owner/webhooks takes no inbox_ids (every mailbox); the action required it.
  it("creates a webhook without inboxIds, watching every mailbox, as owner REST does", async () => {
    const res = await saveWebhookAction({ url: "https://hooks.example.com/all", eventTypes: ["message.received"] });
    expect(res).toMatchObject({ ok: true, data: { url: "https://hooks.example.com/all" } });
    const { projectWebhooks } = await import("@/components/webhooks/owner-webhook-reads");
    const { getDb } = await import("@/lib/db/client");
    expect(await projectWebhooks(await getDb(), signedIn.ctx!.project.id)).toMatchObject([{ inboxIds: [] }]);
  });

  // Owner REST parity (note-36): POST /owner/events/requeue refuses an empty source; the action took it as no filter.
  it("refuses an empty source in Requeue all, naming it, as owner REST does", async () => {
    const res = await requeueMatchingAction({ status: "dead", source: "" });
    expect(res).toMatchObject({ ok: false, fieldErrors: { source: expect.any(String) } });
    expect(await requeueMatchingAction({ status: "dead" })).toEqual({ ok: true, data: { requeued: 0 } });
  });

  it("refuses an if_version past kv's integer column by field, instead of failing in the database", async () => {
    // Save key's ifVersion had no upper bound: 2^31 failed the save's query ("Something went wrong", logged unexpected).
    const saved = await saveKeyAction({ key: "k", valueJson: "1", ifVersion: 2 ** 31 });
    expect(saved).toMatchObject({ ok: false, fieldErrors: { ifVersion: expect.any(String) } });
    expect((await saveKeyAction({ key: "k", valueJson: "1", ifVersion: 0 })).ok).toBe(true);
  });

  it("answers setup called without its FormData with the form's error", async () => {
    for (const form of [null, "token=x", { get: 1 }]) {
      const res = await setupAction({}, form as never);
      expect(res.error).toBeTruthy();
      expect(res.done).toBeUndefined();
    }
  });
});
