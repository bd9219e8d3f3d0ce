import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { applyPolicyDraft } from "@/lib/policy/apply-policy-draft";
import { getPolicy } from "@/lib/policy/get-policy";
import { getPolicyDraft, savePolicyDraft } from "@/lib/policy/policy-draft";
import { listPolicyHistory } from "@/lib/policy/policy-history";
import { revertPolicy } from "@/lib/policy/revert-policy";
import { simulateAgainstDraft } from "@/lib/policy/simulate-draft";
import { seedProject } from "@/lib/testing/seed";

type Seeded = Awaited<ReturnType<typeof seedProject>>;
let a: Seeded;
let b: Seeded;
const tx = async <T>(fn: (db: Awaited<ReturnType<typeof getDb>>) => Promise<T>) => (await getDb()).transaction((t) => fn(t as never));
const save = (s: Seeded, rules: unknown[], note?: string) => tx((t) => savePolicyDraft(t, { actor: s.actor, policy: { rules }, note }));
const apply = (s: Seeded) => tx((t) => applyPolicyDraft(t, { actor: s.actor }));
const code = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e) => (e instanceof AppError ? e.code : String(e)),
  );

beforeAll(async () => {
  a = await seedProject({ name: "Drafts A" });
  b = await seedProject({ name: "Drafts B" });
});

describe("policy drafts", () => {
  it("keep each project's draft to itself and leave the policy in force alone until applied", async () => {
    await save(a, [{ id: "refunds", action: "refund", effect: "auto_approve" }], "try it");
    const db = await getDb();
    expect(await getPolicyDraft(db, b.project.id)).toBeNull();
    expect((await getPolicy(db, a.project.id)).version).toBe(0);
    const sim = await simulateAgainstDraft(db, a.project.id, { action: "refund" });
    expect([sim.inForce.effect, sim.draft?.effect]).toEqual(["require_approval", "auto_approve"]);
    expect((await simulateAgainstDraft(db, b.project.id, { action: "refund" })).draft).toBeNull();

    const applied = await apply(a);
    expect(applied).toEqual({ version: 1, rules: 1 });
    const [v1] = (await listPolicyHistory(db, a.project.id, { limit: 5 })).entries;
    expect(v1.row).toMatchObject({ version: 1, note: "try it", approvedVia: "dashboard", proposedBy: `owner:${a.owner.email}` });
    expect(await code(apply(b))).toBe("CONFLICT");
    expect((await getPolicy(db, b.project.id)).version).toBe(0);
  });

  it("record the version in force when saved, and refuse to revert to that same version", async () => {
    await save(a, [{ id: "one", effect: "deny" }]);
    expect(await code(tx((t) => revertPolicy(t, { actor: a.actor, version: 1 })))).toBe("CONFLICT");
    expect(await code(tx((t) => revertPolicy(t, { actor: a.actor, version: 7 })))).toBe("NOT_FOUND");
    const draft = await getPolicyDraft(await getDb(), a.project.id);
    expect(draft?.baseVersion).toBe(1);
    expect((await getPolicy(await getDb(), a.project.id)).version).toBe(1);
  });

  it("make one version when two owners apply the same draft at once; the other finds no draft", async () => {
    await save(b, [{ id: "race", effect: "deny" }]);
    const results = await Promise.all([code(apply(b)), code(apply(b))]);
    expect(results.sort()).toEqual(["CONFLICT", "ok"]);
    const { entries } = await listPolicyHistory(await getDb(), b.project.id, { limit: 10 });
    expect(entries.map((e) => e.row.version)).toEqual([1]);
  });

  it("make one version when two owners revert to the same version at once; the other finds it in force", async () => {
    await save(b, [{ id: "second", effect: "deny" }]);
    await apply(b);
    const revert = () => code(tx((t) => revertPolicy(t, { actor: b.actor, version: 1 })));
    expect((await Promise.all([revert(), revert()])).sort()).toEqual(["CONFLICT", "ok"]);
    const { entries } = await listPolicyHistory(await getDb(), b.project.id, { limit: 10 });
    expect(entries.map((e) => e.row.version)).toEqual([3, 2, 1]);
  });

  it("roll back a failed apply whole: the draft stays and no version is written", async () => {
    await save(b, [{ id: "again", effect: "allow" }]);
    await expect(
      tx(async (t) => {
        await applyPolicyDraft(t, { actor: b.actor });
        throw new Error("later step failed");
      }),
    ).rejects.toThrow("later step failed");
    const db = await getDb();
    expect((await getPolicyDraft(db, b.project.id))?.rules).toEqual([{ id: "again", effect: "allow" }]);
    expect((await getPolicy(db, b.project.id)).version).toBe(3);
  });
});
