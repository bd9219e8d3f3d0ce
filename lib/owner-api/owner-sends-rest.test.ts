import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { composeSendDef, deleteDraftDef, updateDraftDef } from "@/components/mailboxes/send-action-defs";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { type ActionContext, type ActionLedger, runOwnerAction } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { asKey, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { seedMailbox } from "@/lib/testing/mail-fixture";

/**
 * The owner's own sends over REST (the mail tools' routes with the owner's credentials) are the dashboard's: the
 * owner set the mailbox's send policy, so none holds or refuses the owner's send; and the owner decides a held draft
 * (approve or reject) rather than editing or deleting it. Before, the tools sent as an agent: the owner's send from an
 * `approval` mailbox was held for the owner's own approval, from a `read_only` one refused, and a held draft could be
 * deleted over REST though the Drafts screen refuses it.
 */
type Def<S extends z.ZodType, T> = { schema: S; run: (ctx: ActionContext, input: z.output<S>) => Promise<T>; ledger: ActionLedger<z.output<S>> };
const act = <S extends z.ZodType, T>(ctx: OwnerContext, d: Def<S, T>, input: z.input<S>) => runOwnerAction(ctx, d.schema, d.run, d.ledger, input);

let c: Awaited<ReturnType<typeof ownerClient>>;
let ctx: OwnerContext;
beforeAll(async () => {
  c = await ownerClient("Owner sends");
  ctx = { owner: c.seeded.owner, sessionId: "ses_test", project: c.seeded.project, projects: [c.seeded.project], actor: c.seeded.actor };
});
afterAll(() => c.server.close());

describe.each(["approval", "read_only"] as const)("from a mailbox whose send policy is %s", (policy) => {
  it("the owner's REST send goes at once, as the dashboard's compose does, and an agent's still does not", async () => {
    const from = await seedMailbox(c.seeded.project.id);
    const to = await seedMailbox(c.seeded.project.id);
    expect((await c.call("PATCH", `/owner/inboxes/${from.id}/send-policy`, { send_policy: policy })).status).toBe(200);

    const dash = await act(ctx, composeSendDef, { inboxId: from.id, mode: "new", to: [to.address], cc: [], bcc: [], subject: "dash", text: "x", paths: [] });
    expect(dash).toMatchObject({ ok: true, data: { draftId: null, messageId: expect.stringMatching(/^msg_/) } });
    const rest = await c.call("POST", `/inboxes/${from.id}/messages/send`, { to: [to.address], subject: "rest", text: "x" });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.message_id).toMatch(/^msg_/);

    const agent = await c.call("POST", `/inboxes/${from.id}/messages/send`, { to: [to.address], subject: "agent", text: "x" }, asKey(c.seeded.secret));
    expect(agent.status).toBe(403);
    expect(agent.body.error.code).toBe(policy === "approval" ? "approval_required" : "missing_permission");
  });
});

it("the owner's REST edit and delete of a held draft are refused as the dashboard's are, and the draft stays held", async () => {
  const from = await seedMailbox(c.seeded.project.id);
  const to = await seedMailbox(c.seeded.project.id);
  await c.call("PATCH", `/owner/inboxes/${from.id}/send-policy`, { send_policy: "approval" });
  const held = await c.call("POST", `/inboxes/${from.id}/messages/send`, { to: [to.address], subject: "held", text: "x" }, asKey(c.seeded.secret));
  const draftId = held.body.error.details.draft_id as string;

  const dashEdit = await act(ctx, updateDraftDef, { draftId, version: 1, subject: "changed" });
  const dashDelete = await act(ctx, deleteDraftDef, { draftId, version: 1 });
  expect([dashEdit.ok, dashDelete.ok]).toEqual([false, false]);
  const restEdit = await c.call("PATCH", `/inboxes/${from.id}/drafts/${draftId}`, { subject: "changed over REST" });
  const restDelete = await c.call("DELETE", `/inboxes/${from.id}/drafts/${draftId}`);
  expect([restEdit.status, restDelete.status]).toEqual([409, 409]);
  expect(restDelete.body.error).toMatchObject({ code: "CONFLICT", message: `Draft ${draftId} is awaiting approval: it cannot be deleted.` });
  const [row] = await (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.id, draftId));
  expect(row?.sendStatus).toBe("pending_approval");
  // The agent that made it may still take it back (its request is withdrawn).
  const agentDelete = await c.call("DELETE", `/inboxes/${from.id}/drafts/${draftId}`, undefined, asKey(c.seeded.secret));
  expect(agentDelete).toMatchObject({ status: 200, body: { deleted: true } });
});
