import { describe, expect, it } from "vitest";
import { inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { mailEventFrames } from "@/lib/http/stream/mail-event-frame";
import { emitMailEvent, type MailEventInput } from "@/lib/mail/events/emit-mail-event";
import { seedReceivedMail } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";

/** The tail builds a batch's frames with shared reads (buildEventPayloads): each must equal the frame built alone. */
describe("mailEventFrames", () => {
  it("builds a batch over two projects, with a message, a draft and a deleted message, as each alone", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const inputs: MailEventInput[] = [];
    for (const name of ["Frames A", "Frames B"]) {
      const { project } = await seedProject({ name });
      const f = await seedReceivedMail(project.id);
      const base = { projectId: project.id, mailboxId: f.inbox, summary: { from: "a@example.org", to: [], subject: "s", preview: null, labels: [] } };
      inputs.push(
        { ...base, type: "message.received", messageId: f.message, threadId: f.thread },
        { ...base, type: "draft.pending_approval", messageId: null, threadId: null, draftId: f.draft },
        { ...base, type: "message.received", messageId: "msg_gone", threadId: f.thread },
        { ...base, type: "message.received", messageId: f.message, threadId: f.thread },
      );
    }
    const ids = await db.transaction(async (tx) => {
      const out: string[] = [];
      for (const e of inputs) out.push(await emitMailEvent(tx, e));
      return out;
    });
    const rows = (await db.select().from(mailEvents).where(inArray(mailEvents.id, ids))).sort((a, b) => a.seq - b.seq);
    const together = await mailEventFrames(db, rows);
    const alone = await Promise.all(rows.map(async (r) => (await mailEventFrames(db, [r]))[0]));
    expect(together.map((f) => f.id)).toEqual(rows.map((r) => r.id));
    expect(together.map((f) => JSON.parse(f.json))).toEqual(alone.map((f) => JSON.parse(f.json)));
    const parsed = together.map((f) => JSON.parse(f.json) as { message?: { subject?: string; text?: string }; draft?: { subject?: string } });
    expect(parsed[0].message?.subject).toBe("Quarterly numbers");
    expect(parsed[1].draft?.subject).toBe("A draft");
    // The deleted message is described by the event's own summary.
    expect(parsed[2].message?.subject).toBe("s");
  });
});
