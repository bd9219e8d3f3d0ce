import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { deleteDraft } from "@/lib/tools/mailboxes/delete-draft";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { runTool } from "@/lib/tools/run-tool";
import { projectWithKey, refusal } from "./inbox-test-helpers";

/** The owner approves a held draft while its agent deletes (withdraws) it: one clean answer each, in either order. */
let p: Awaited<ReturnType<typeof projectWithKey>>;
beforeAll(async () => {
  p = await projectWithKey("Draft decision race");
});

/** A refusal's code, or "ok": anything else (a deadlock, a 500) is the defect. */
const answer = (x: Promise<unknown>) =>
  x.then(
    () => "ok",
    (e: unknown) => (e instanceof AppError ? e.code : `unexpected: ${String(e)}`),
  );

describe("approving a held draft while the agent deletes it", () => {
  it("never deadlocks: either the send goes and the delete finds it gone, or the draft goes and nothing is sent", async () => {
    const db = await getDb();
    const from = await seedMailbox(p.project.id);
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    for (let i = 0; i < 8; i++) {
      const to = await seedMailbox(p.project.id);
      const held = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: `race ${i}`, text: "x" });
      const draftId = (held.details as { draft_id: string }).draft_id;
      const requestId = (await db.select().from(approvalRequests).where(eq(approvalRequests.projectId, p.project.id))).find(
        (r) => (r.payload as { draft_id?: string } | null)?.draft_id === draftId,
      )?.id;
      expect(requestId).toBeTruthy();
      // Before: the decision updated the request then locked the draft, the withdrawal the other way: 40P01 in most rounds.
      const [approve, remove] = await Promise.all([
        answer(db.transaction((tx) => decideAsOwner(tx, { actor: p.actor, requestId: requestId!, verdict: { outcome: "approve" } }))),
        answer(runTool(deleteDraft, p.mcp, { inboxId: from.id, draftId }, new AbortController().signal)),
      ]);
      await drainJobs();
      const delivered = (await db.select().from(mailMessages).where(eq(mailMessages.mailboxId, to.id))).length;
      expect([approve, remove, delivered], `round ${i}`).toSatisfy(
        ([a, r, n]) => (a === "ok" && n === 1 && (r === "ok" || r === "NOT_FOUND")) || (a === "ALREADY_DECIDED" && r === "ok" && n === 0),
      );
    }
  });
});
