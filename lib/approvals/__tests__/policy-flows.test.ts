import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalChannels, approvalRequests, policyVersions } from "@/lib/db/schema/approvals";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { newId } from "@/lib/ids";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";

const { h, call, decide, setPolicy, resolvedEvents } = approvalsHarness();

const refund = (amount: number, over: Record<string, unknown> = {}) =>
  call("ask_approval", { action: "refund", summary: `Refund ${amount} €?`, amount, wait_seconds: 0, ...over });

describe("policy effects on ask_approval", () => {
  it("version 0 sends every request to a person", async () => {
    const p = await call("policy_get");
    expect(p.ok && p.data).toMatchObject({ version: 0, rules: [] });
    const r = await refund(5);
    expect(r.ok && r.data.status).toBe("pending");
  });

  it("decides at once under auto_approve, auto_approve_notify, allow and deny, naming the rule", async () => {
    await setPolicy([
      { id: "tiny", action: "refund", amount_lte: 10, effect: "allow" },
      { id: "small", action: "refund", amount_lte: 50, effect: "auto_approve" },
      { id: "medium", action: "refund", amount_lte: 200, effect: "auto_approve_notify" },
      { id: "huge", action: "refund", amount_gt: 1000, effect: "deny" },
      { id: "reviews", action: "refund", effect: "require_approval" },
    ]);
    const cases: [number, string, string | null][] = [
      [5, "approved", "policy:tiny"],
      [30, "approved", "policy:small"],
      [150, "approved", "policy:medium"],
      [5000, "denied", "policy:huge"],
      [500, "pending", null],
    ];
    for (const [amount, status, decidedBy] of cases) {
      const r = await refund(amount, { wait_seconds: 5 });
      expect(r.ok && { status: r.data.status, decided_by: r.data.decided_by }).toEqual({ status, decided_by: decidedBy });
    }
    const events = await resolvedEvents();
    expect(events.some((e) => (e.payload as { decided_by: string }).decided_by === "policy:small")).toBe(true);
    const db = await getDb();
    const [pending] = await db
      .select()
      .from(approvalRequests)
      .where(and(eq(approvalRequests.projectId, h.seeded.project.id), eq(approvalRequests.rule, "reviews")));
    expect(pending).toMatchObject({ status: "pending", policyVersion: 1 });
    const decisions = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, h.seeded.project.id), eq(ledgerEntries.op, "request.decide"), eq(ledgerEntries.agent, "policy:huge")));
    expect(decisions).toHaveLength(1);
  });

  it("asks a rule's approvers, or the owner when none of them is active", async () => {
    const db = await getDb();
    const inactive = newId("chn");
    await db
      .insert(approvalChannels)
      .values({ id: inactive, projectId: h.seeded.project.id, kind: "email", label: "off", address: "off@example.com", status: "awaiting_approval" });
    const ownerId = ok(await call("channel_list")).channels.find((c: { kind: string }) => c.kind === "owner").id;
    await setPolicy([{ id: "to-off", action: "delete", effect: "require_approval", approvers: [inactive] }]);
    const r = await call("ask_approval", { action: "delete", summary: "Delete the staging database?", wait_seconds: 0 });
    const [row] = await db
      .select()
      .from(approvalRequests)
      .where(eq(approvalRequests.id, r.ok ? (r.data.request_id as string) : ""));
    expect(row.approvers).toEqual([ownerId]);
    expect(row.rule).toBe("to-off");
  });
});

describe("policy_set", () => {
  it("applies only once a person approves it, as a new version with its approver", async () => {
    const before = await call("policy_get");
    const beforeVersion = before.ok ? (before.data.version as number) : -1;
    const rules = [{ id: "small-refunds", action: "refund", amount_lte: 20, effect: "auto_approve" }];
    const r = await call("policy_set", { policy: { rules }, note: "Let small refunds through.", wait_seconds: 0 });
    expect(r.ok && r.data).toMatchObject({ kind: "policy", status: "pending", version: null });
    const id = r.ok ? (r.data.request_id as string) : "";
    expect((await call("policy_get")).ok && (await call("policy_get"))).toMatchObject({ data: { version: beforeVersion } });

    await decide(id, { outcome: "approve" });
    const after = await call("policy_get");
    expect(after.ok && after.data).toMatchObject({ version: beforeVersion + 1, rules, approved_by: "owner:owner@example.com" });
    const status = await call("request_status", { request_id: id });
    expect(status.ok && status.data).toMatchObject({ status: "approved", version: beforeVersion + 1 });
    const [v] = await (await getDb())
      .select()
      .from(policyVersions)
      .where(and(eq(policyVersions.projectId, h.seeded.project.id), eq(policyVersions.version, beforeVersion + 1)));
    expect(v).toMatchObject({ requestId: id, note: "Let small refunds through.", approvedBy: "owner:owner@example.com" });
    expect(v.approvedVia).toMatch(/^chn_/);
  });

  it("is not applied on needs_context or deny", async () => {
    const before = await call("policy_get");
    const version = before.ok ? before.data.version : -1;
    const a = await call("policy_set", { policy: { rules: [{ id: "everything", effect: "auto_approve" }] }, wait_seconds: 0 });
    await decide(a.ok ? (a.data.request_id as string) : "", { outcome: "needs_context", comment: "Why approve everything?" });
    const b = await call("policy_set", { policy: { rules: [{ id: "everything", effect: "auto_approve" }] }, note: "Asked again", wait_seconds: 0 });
    await decide(b.ok ? (b.data.request_id as string) : "", { outcome: "deny" });
    const after = await call("policy_get");
    expect(after.ok && after.data.version).toBe(version);
  });

  it("is refused at approval when another version was applied since it was proposed: the newer rules stay", async () => {
    const stale = ok(await call("policy_set", { policy: { rules: [{ id: "stale-proposal", effect: "auto_approve" }] }, wait_seconds: 0 }));
    const newer = ok(await call("policy_set", { policy: { rules: [{ id: "no-wires", action: "wire*", effect: "deny" }] }, wait_seconds: 0 }));
    await decide(newer.request_id as string, { outcome: "approve" });
    const version = await versionNow();
    // Before: approved, and the version in force held only the stale proposal's rules: "no-wires" silently gone.
    await expect(decide(stale.request_id as string, { outcome: "approve" })).rejects.toThrow(
      `Version ${version} is in force now, not version ${version - 1}: this proposal was made against version ${version - 1}`,
    );
    expect(ok(await call("request_status", { request_id: stale.request_id })).status).toBe("pending");
    expect(ok(await call("policy_get"))).toMatchObject({ version, rules: [{ id: "no-wires" }] });
    // Rejecting it still works: the agent is told, and proposes again against the policy in force.
    await decide(stale.request_id as string, { outcome: "deny", comment: "Propose against the current policy." });
  });

  /** A pending proposal of one rule asked of a fresh active channel, and the channel. */
  async function proposalNaming(label: string) {
    const channel = newId("chn");
    await (await getDb())
      .insert(approvalChannels)
      .values({ id: channel, projectId: h.seeded.project.id, kind: "email", label, address: `${label}@example.com`, status: "active" });
    const rules = [{ id: `by-${label}`, action: "refund", effect: "require_approval", approvers: [channel] }];
    const r = ok(await call("policy_set", { policy: { rules }, wait_seconds: 0 }));
    return { channel, requestId: r.request_id as string };
  }
  const versionNow = async () => ok(await call("policy_get")).version as number;

  it("is withdrawn when a channel its rules name is removed: a policy in force names live channels only", async () => {
    const version = await versionNow();
    const { channel, requestId } = await proposalNaming("leaving");
    ok(await call("channel_remove", { channel_id: channel }));
    // Before: still pending, and approving it put in force a policy that policy_set itself then refused to take back.
    const status = ok(await call("request_status", { request_id: requestId }));
    expect(status).toMatchObject({
      status: "denied",
      comment: `Withdrawn: channel leaving (${channel}), which its rules name, was removed before a decision.`,
    });
    await expect(decide(requestId, { outcome: "approve" })).rejects.toThrow(/already decided/);
    expect(await versionNow()).toBe(version);
  });

  it("is refused at approval, naming the rule, when a channel it names went without withdrawing it (written during the removal)", async () => {
    const version = await versionNow();
    const { channel, requestId } = await proposalNaming("raced");
    await (await getDb()).update(approvalChannels).set({ status: "removed", removedAt: new Date() }).where(eq(approvalChannels.id, channel));
    await expect(decide(requestId, { outcome: "approve" })).rejects.toThrow(`rule 1 "by-raced": approvers: ${channel} is not a channel of this project`);
    expect(ok(await call("request_status", { request_id: requestId })).status).toBe("pending");
    expect(await versionNow()).toBe(version);
  });
});
