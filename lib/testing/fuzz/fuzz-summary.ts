import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FUZZ_RUNS, FUZZ_SEED } from "@/lib/testing/fuzz/fuzz-settings";

/** Calls tried per target (a tool, a route) and per way in (mcp, rest, http), split by what the server answered. */
type Tally = Record<string, Record<string, { calls: number; refused: number }>>;

/**
 * Counts the calls of one fuzz test file and writes them, with the seed, to test-results/fuzz-<suite>.json at the
 * end (one file per suite: the test files run in separate workers), with one line on the console for the report.
 */
export function fuzzSummary(suite: string) {
  const tally: Tally = {};
  const started = Date.now();
  return {
    count(target: string, way: string, refused: boolean) {
      const t = ((tally[target] ??= {})[way] ??= { calls: 0, refused: 0 });
      t.calls++;
      if (refused) t.refused++;
    },
    write() {
      const ways = Object.values(tally).flatMap((w) => Object.entries(w));
      const total = ways.reduce((n, [, t]) => n + t.calls, 0);
      const byWay: Record<string, number> = {};
      for (const [way, t] of ways) byWay[way] = (byWay[way] ?? 0) + t.calls;
      const dir = join(process.cwd(), "test-results");
      mkdirSync(dir, { recursive: true });
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      const database = process.env.DATABASE_URL?.startsWith("postgres") ? "postgres" : "pglite";
      writeFileSync(
        join(dir, `fuzz-${suite}.json`),
        `${JSON.stringify({ suite, seed: FUZZ_SEED, runs: FUZZ_RUNS, database, seconds, total, byWay, targets: tally }, null, 2)}\n`,
      );
      const split = Object.entries(byWay)
        .map(([way, n]) => `${way} ${n}`)
        .join(", ");
      console.log(
        `[fuzz] ${suite}: ${total} calls (${split}) over ${Object.keys(tally).length} targets in ${seconds} s, seed ${FUZZ_SEED}, ${FUZZ_RUNS} runs each; per target in test-results/fuzz-${suite}.json`,
      );
    },
  };
}
