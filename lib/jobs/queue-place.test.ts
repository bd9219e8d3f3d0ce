import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { inQueuePlace } from "@/lib/jobs/queue-place";
import { runJob } from "@/lib/jobs/run-job";
import { deliverMessageJob } from "@/lib/mail/outbound/deliver-message-job";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

const KINDS = ["mail.send_draft", "mail.deliver"];

describe("a job's follow-on work keeps its place in the queue", () => {
  it("runs a scheduled send's delivery before the next draft due at the same instant", async () => {
    const p = await projectWithKey("Queue place");
    const from = await seedMailbox(p.project.id);
    const to = await seedMailbox(p.project.id);
    const drafts = [];
    for (const subject of ["First", "Second"]) {
      const sendAt = new Date(Date.now() + 3_600_000).toISOString();
      drafts.push((await call(createDraft, p.mcp, { inboxId: from.id, to: [to.address], subject, text: "x", sendAt })).draft_id);
    }
    const db = await getDb();
    // Both fall due at the same instant, as a burst of scheduled sends does.
    const due = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);
    const keys = drafts.map((id) => `drf:${id}:1`);
    await db
      .update(jobs)
      .set({ runAt: due })
      .where(and(eq(jobs.kind, "mail.send_draft"), inArray(jobs.dedupeKey, keys)));

    const [first] = await claimJobs(db, { limit: 1, kinds: ["mail.send_draft"] });
    expect(first.runAt.getTime()).toBe(due.getTime());
    expect(await runJob(db, first)).toBe("done");

    // The delivery it queued sits just ahead of its parent's instant, so it is claimed before the second draft.
    const [delivery] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "mail.deliver"), eq(jobs.projectId, p.project.id)));
    expect(delivery.runAt.getTime()).toBe(due.getTime() - 1);
    const [next] = await claimJobs(db, { limit: 1, kinds: KINDS });
    expect(next.id).toBe(delivery.id);
    expect(await runJob(db, next)).toBe("done");
    const [second] = await claimJobs(db, { limit: 1, kinds: KINDS });
    expect(second.kind).toBe("mail.send_draft");
    expect(second.dedupeKey).not.toBe(first.dedupeKey);
    expect(await runJob(db, second)).toBe("done");
  });

  it("leaves a job enqueued outside a job, or by a job of its own kind, at now, and an explicit time as given", async () => {
    const db = await getDb();
    const payload = { delivery_id: "dlv_none" };
    const later = new Date(Date.now() + 60_000);
    const parent = { kind: "mail.send_draft", runAt: new Date(Date.now() - 60_000) };
    // A kind that re-queued itself would otherwise keep the head of the queue forever.
    const itself = { kind: deliverMessageJob.kind, runAt: parent.runAt };
    const enqueue = (runAt?: Date) => db.transaction((tx) => enqueueJob(tx, deliverMessageJob, payload, { projectId: null, runAt }));
    const before = Date.now();
    const ids = {
      outside: await enqueue(),
      explicit: await inQueuePlace(parent, () => enqueue(later)),
      inherited: await inQueuePlace(parent, () => enqueue()),
      sameKind: await inQueuePlace(itself, () => enqueue()),
    };
    const after = Date.now();
    const rows = await db
      .select({ id: jobs.id, runAt: jobs.runAt })
      .from(jobs)
      .where(inArray(jobs.id, Object.values(ids)));
    const at = (id: string) => rows.find((r) => r.id === id)?.runAt.getTime() ?? 0;
    // Enqueued "now": between the clock readings around the calls.
    expect(at(ids.outside)).toBeGreaterThanOrEqual(before);
    expect(at(ids.outside)).toBeLessThanOrEqual(after);
    expect(at(ids.explicit)).toBe(later.getTime());
    expect(at(ids.inherited)).toBe(parent.runAt.getTime() - 1);
    expect(at(ids.sameKind)).toBeGreaterThanOrEqual(before);
    expect(at(ids.sameKind)).toBeLessThanOrEqual(after);
    await db.delete(jobs).where(inArray(jobs.id, Object.values(ids)));
  });
});
