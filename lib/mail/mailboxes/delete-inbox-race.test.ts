import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { mailboxes } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { runTool } from "@/lib/tools/run-tool";
import { untilBlocked } from "@/lib/testing/until-blocked";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * delete_inbox withdraws the approval requests of the drafts held in the inbox (withdrawHeldSends), so the owner is
 * never asked to approve a send that can no longer happen; that must hold for a send held while the delete is under
 * way. Before: the send read the mailbox without a lock, the delete's withdrawal could not see the uncommitted held
 * draft, and nothing conflicted (the draft's foreign key takes KEY SHARE, the delete NO KEY UPDATE): both committed,
 * leaving a pending request, notified to the owner's channels, for a draft of a deleted inbox. PostgreSQL only
 * (PGlite runs one transaction at a time).
 */
const pg = (process.env.DATABASE_URL ?? "").startsWith("postgres");
let p: Awaited<ReturnType<typeof projectWithKey>>;
beforeAll(async () => {
  p = await projectWithKey("Delete inbox vs hold");
});

describe.runIf(pg)("delete_inbox racing a send held for approval", () => {
  it("leaves no pending approval request for a draft of the deleted inbox", async () => {
    const box = await call(createInbox, p.mcp, { username: `hold${Math.random().toString(36).slice(2, 8)}` });
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.inbox_id));
    const peer = `peer@${box.email.split("@")[1]}`;

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let deleted!: () => void;
    const deleteDone = new Promise<void>((r) => (deleted = r));
    // 1. delete_inbox runs up to its commit (row updated, held sends withdrawn) and waits there.
    const deleting = db.transaction(async (tx) => {
      await deleteMailbox(tx, { actor: p.actor, inboxId: box.inbox_id });
      deleted();
      await gate;
    });
    await deleteDone;
    // 2. An agent's send in the approval-mode inbox, meanwhile.
    const sending = runTool(sendMessage, p.mcp, { inboxId: box.inbox_id, to: [peer], subject: "held", text: "x" }, new AbortController().signal).then(
      (r) => r,
      (e: unknown) => e,
    );
    // Let the send finish, or block on the delete, before the delete commits.
    await untilBlocked(sending);
    release();
    await deleting;
    const sent = await sending;
    // The send waited for the delete, and then found no inbox.
    expect(sent).toBeInstanceOf(AppError);
    expect((sent as AppError).code).toBe("NOT_FOUND");

    const held = await db
      .select({ id: mailDrafts.id, status: approvalRequests.status })
      .from(mailDrafts)
      .innerJoin(approvalRequests, eq(approvalRequests.id, mailDrafts.approvalRequestId))
      .where(and(eq(mailDrafts.projectId, p.project.id), eq(mailDrafts.mailboxId, box.inbox_id)));
    expect(held.filter((h) => h.status === "pending")).toEqual([]);
  });
});
