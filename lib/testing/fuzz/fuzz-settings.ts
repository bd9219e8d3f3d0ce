import fc from "fast-check";

/**
 * The fuzz suite's seed and size. CI runs the fixed default seed, so a failure there replays here with the same
 * `FUZZ_SEED`; `FUZZ_RUNS` raises the number of generated cases per property for a longer local run (a new seed
 * explores new cases: `FUZZ_SEED=$RANDOM`).
 */
export const FUZZ_SEED = intFromEnv("FUZZ_SEED", 20_151_215);
export const FUZZ_RUNS = intFromEnv("FUZZ_RUNS", 12);

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}.`);
  return n;
}

/** Counterexamples hold 100k-character strings and 5,000-deep arrays: the report keeps their start. */
const MAX_REPORT_CHARS = 6_000;

/**
 * How long one property may run, shrinking included: shrinking goes through the server, and a failure must be
 * reported (with its best counterexample so far) well within FUZZ_TEST_TIMEOUT_MS.
 */
const TIME_LIMIT_MS = 45_000;
export const FUZZ_TEST_TIMEOUT_MS = 90_000;

/**
 * `fc.check` with the suite's seed, and a failure message that starts with how to replay it (seed, path, runs)
 * before fast-check's own report and counterexample.
 */
export async function assertFuzz<T>(label: string, property: fc.IAsyncProperty<T>, runs = FUZZ_RUNS): Promise<void> {
  const path = process.env.FUZZ_PATH || undefined;
  const details = await fc.check(property, { seed: FUZZ_SEED, path, numRuns: runs, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)] });
  if (details.interrupted && !details.failed) console.warn(`[fuzz] ${label}: stopped by the time limit after ${details.numRuns} of ${runs} runs`);
  if (!details.failed) return;
  // FUZZ_PATH goes straight to the counterexample; each test has its own, so run that test alone (vitest -t).
  const replay = `FUZZ_SEED=${details.seed} FUZZ_RUNS=${FUZZ_RUNS}${details.counterexamplePath ? `, or at once with FUZZ_PATH=${details.counterexamplePath} running this test alone` : ""}`;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? "");
  const report = `${cause}\n${fc.defaultReportMessage(details) ?? ""}`;
  const cut = report.length > MAX_REPORT_CHARS ? `${report.slice(0, MAX_REPORT_CHARS)}… (${report.length} characters)` : report;
  throw new Error(`Fuzzing ${label} failed; replay with ${replay}.\n${cut}`);
}
