import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { decideByChannel } from "@/lib/approvals/decide-by-channel";
import { approvalsHarness, ok, relaySink } from "@/lib/approvals/__tests__/helpers";
import { removeChannel } from "@/lib/channels/remove-channel";
import { getDb } from "@/lib/db/client";
import { approvalChannels, approvalRequests, type ApprovalChannel } from "@/lib/db/schema/approvals";
import { newId } from "@/lib/ids";

const { h, call } = approvalsHarness();
relaySink();
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

/** An active email channel, as if verified and approved. */
async function activeChannel(label: string): Promise<ApprovalChannel> {
  const [row] = await (await getDb())
    .insert(approvalChannels)
    .values({ id: newId("chn"), projectId: h.seeded.project.id, kind: "email", label, address: `${label}@example.com`, status: "active" })
    .returning();
  return row;
}

/** channel_remove's transaction, held open once the removal is written until `commit()`. */
async function removalHeldOpen(channelId: string) {
  let commit!: () => void;
  const held = new Promise<void>((resolve) => {
    commit = resolve;
  });
  let written = false;
  const done = (await getDb()).transaction(async (tx) => {
    await removeChannel(tx, { actor: h.seeded.actor, channelId });
    written = true;
    await held;
  });
  await expect.poll(() => written).toBe(true);
  return {
    commit: async () => {
      commit();
      await done;
    },
  };
}

/** Sessions of this database waiting on a lock (a row's or an advisory one) whose query mentions `like`. */
async function waitingOn(like: string) {
  const rows = await (await getDb()).execute(
    sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query like ${like}`,
  );
  return (rows as unknown as unknown[]).length;
}

const ownerChannelId = async () => ok(await call("channel_list")).channels.find((c: { kind: string }) => c.kind === "owner").id as string;
const requestRow = async (id: string) => (await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.id, id)))[0];

describe("channel_remove", () => {
  it("removes a channel once when many calls race for it: one answers removed, the others NOT_FOUND", async () => {
    const { channel_id } = ok(await call("channel_add", { kind: "email", address: "race@example.com", label: "race" }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("channel_remove", { channel_id })));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(new Set(answers.filter((a) => !a.ok).map((a) => !a.ok && a.code))).toEqual(new Set(["NOT_FOUND"]));
    const listed = ok(await call("channel_list")).channels as { id: string }[];
    expect(listed.map((c) => c.id)).not.toContain(channel_id);
  });

  it.runIf(onPostgres)("a decision through the channel that waited on its removal decides nothing: the request stays the owner's", async () => {
    const channel = await activeChannel("decides-late");
    const { request_id } = ok(await call("ask_approval", { action: "refund", summary: "Refund 1?", wait_seconds: 0, approvers: [channel.id] }));
    const removal = await removalHeldOpen(channel.id);
    // Its email link or Telegram button, pressed now: the channel and the request read as they were, active and its.
    const deciding = (await getDb())
      .transaction((tx) => decideByChannel(tx, { channel, requestId: request_id, verdict: { outcome: "approve" } }))
      .catch((err: unknown) => err);
    await expect.poll(() => waitingOn("%approval_requests%")).toBeGreaterThan(0);
    await removal.commit();
    // Before: approved by the removed channel once the removal committed, its event and callback sent.
    expect(await deciding).toMatchObject({ code: "forbidden", message: "This channel is not active." });
    expect(await requestRow(request_id)).toMatchObject({ status: "pending", approvers: [await ownerChannelId()], decidedChannelId: null });
  });

  it.runIf(onPostgres)("a request asking the channel while it is being removed waits for the removal, and is refused naming it", async () => {
    const channel = await activeChannel("asked-late");
    const removal = await removalHeldOpen(channel.id);
    const asking = call("ask_approval", { action: "refund", summary: "Refund 2?", wait_seconds: 0, approvers: [channel.id] });
    await expect.poll(() => waitingOn("%pg_advisory_xact_lock_shared%")).toBeGreaterThan(0);
    await removal.commit();
    // Before: pending with only the removed channel as approver (the removal had moved none), and mailed to it.
    const answer = await asking;
    expect(answer).toMatchObject({ ok: false, code: "validation_error" });
    expect(!answer.ok && answer.message).toContain(`${channel.id} is not a channel of this project`);
    const asked = await (await getDb()).select().from(approvalRequests).where(sql`${approvalRequests.approvers} ? ${channel.id}`);
    expect(asked).toEqual([]);
  });
});
