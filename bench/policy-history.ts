/**
 * The Policy screen's reads, on PostgreSQL, in process: 200 applied versions of 100 rules each (the most a policy
 * may have), every version changing a few rules.
 * 1. History with diffs (listPolicyHistory, 50 versions, each diffed against the one before); baseline: the same 51
 *    rows read without diffing (listPolicyVersions) in the same run, so the difference is the diffing.
 * 2. The side-by-side simulation (simulateAgainstDraft: in force + draft); baseline: one simulatePolicy.
 * Reports p50/p99 in ms, never asserts. Run: npx tsx bench/policy-history.ts
 */
import { percentiles } from "./support/load";
import { benchOwner } from "./support/bench-owner";

const VERSIONS = Number(process.env.VERSIONS ?? 200);
const RULES = Number(process.env.RULES ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 200);

async function timed(rounds: number, fn: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return percentiles(ms);
}

async function main() {
  const { db, project, actor, close } = await benchOwner("brynth_bench_policy");
  const { savePolicyDraft } = await import("@/lib/policy/policy-draft");
  const { applyPolicyDraft } = await import("@/lib/policy/apply-policy-draft");
  const { listPolicyHistory } = await import("@/lib/policy/policy-history");
  const { listPolicyVersions } = await import("@/lib/policy/get-policy");
  const { simulateAgainstDraft } = await import("@/lib/policy/simulate-draft");
  const { simulatePolicy } = await import("@/lib/policy/simulate-policy");

  const rulesOf = (v: number) =>
    Array.from({ length: RULES }, (_, i) => ({
      id: `rule-${(i + v) % (RULES + 5)}`,
      action: `act_${i}`,
      amount_lte: i % 7 === v % 7 ? v : i,
      effect: i % 3 === 0 ? "auto_approve" : "require_approval",
    }));
  for (let v = 1; v <= VERSIONS; v++) {
    await db.transaction(async (tx) => {
      await savePolicyDraft(tx, { actor, policy: { rules: rulesOf(v) } });
      await applyPolicyDraft(tx, { actor });
    });
  }
  await db.transaction((tx) => savePolicyDraft(tx, { actor, policy: { rules: rulesOf(VERSIONS + 1) } }));

  const simulation = { action: `act_${RULES - 1}`, amount: 5, risk: "low" as const };
  const result = {
    bench: "policy-history",
    versions: VERSIONS,
    rules_per_version: RULES,
    rounds: ROUNDS,
    history_50_with_diffs_ms: await timed(ROUNDS, () => listPolicyHistory(db, project.id, { limit: 50 })),
    baseline_read_51_versions_ms: await timed(ROUNDS, () => listPolicyVersions(db, project.id, 51)),
    simulate_in_force_and_draft_ms: await timed(ROUNDS, () => simulateAgainstDraft(db, project.id, simulation)),
    baseline_simulate_in_force_ms: await timed(ROUNDS, () => simulatePolicy(db, project.id, simulation)),
  };
  console.log(JSON.stringify(result, null, 2));
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
