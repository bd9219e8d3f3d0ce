import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { closeAllSockets, streamSocket } from "@/lib/http/stream/stream-test-client";
import { addMailbox } from "@/lib/mail/__tests__/mail-store-helpers";
import { seedProject } from "@/lib/testing/seed";
import { useTwoInstances } from "@/lib/testing/spawn-instance";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

// Each instance has its own tail; they meet only through PostgreSQL (NOTIFY, then each reads mail_events itself).
describe.runIf(onPostgres)("the live stream across two instances", () => {
  const instances = useTwoInstances();
  afterAll(() => closeAllSockets());

  it("shows a socket on one instance the mail events caused through the other, both ways", async () => {
    const seeded = await seedProject({ name: "Two instances" });
    const box = await addMailbox(seeded.project.id, "held");
    // An approval-mode mailbox: a send through the API holds a draft and emits draft.pending_approval in the call.
    await (await getDb()).update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
    const headers = { authorization: `Bearer ${seeded.secret}` };
    const onA = await streamSocket(instances.a.url, headers);
    const onB = await streamSocket(instances.b.url, headers);
    await onA.subscribe({ inbox_ids: [box.id], event_types: ["draft.pending_approval"] });
    await onB.subscribe({ inbox_ids: [box.id], event_types: ["draft.pending_approval"] });
    const send = async (url: string, subject: string) => {
      const res = await fetch(`${url}/api/v1/inboxes/${box.id}/messages/send`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ to: [box.address], subject, text: "Held for approval." }),
      });
      expect((await res.json()) as unknown).toMatchObject({ error: { code: "approval_required" } });
    };
    const draftSubject = (f: Record<string, unknown>) => (f.draft as { subject?: string } | undefined)?.subject;
    await send(instances.b.url, "caused on B");
    const seenOnA = await onA.next((f) => f.type === "event" && draftSubject(f) === "caused on B");
    expect(seenOnA).toMatchObject({ event_type: "draft.pending_approval", inbox_id: box.id });
    await send(instances.a.url, "caused on A");
    await onB.next((f) => f.type === "event" && draftSubject(f) === "caused on A");
    await onA.next((f) => f.type === "event" && draftSubject(f) === "caused on A");
    await onB.next((f) => f.type === "event" && draftSubject(f) === "caused on B");
    // Both see both, once each, in the same (commit) order.
    expect(onA.events().map((f) => f.event_id)).toEqual(onB.events().map((f) => f.event_id));
    expect(onA.events()).toHaveLength(2);
    onA.close();
    onB.close();
  }, 60_000);
});
