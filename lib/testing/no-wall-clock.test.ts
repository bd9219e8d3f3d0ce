import { readFileSync } from "node:fs";
import { walkFiles } from "@/lib/testing/walk-files";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * No test asserts how long something took: on a shared two-core machine a bound like "returns in under 1 s" (or
 * "waited at least 2 s") flakes. Tests assert order and outcome instead; a time the code computed (an expiry, a
 * retry) is checked against clock readings taken before and after the call, not against a later `Date.now()`.
 * Flagged, conservatively, on one line: a size matcher (`toBeLessThan`, `toBeGreaterThan…`, `toBeCloseTo`) on an
 * expression that subtracts a clock reading, or on a variable the file assigned from one or named like a duration.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
const scanned = ["app", "components", "lib", "e2e"];
const testFile = /\.(test|spec)\.tsx?$/;
const self = relative(root, fileURLToPath(import.meta.url));

/** Files owned elsewhere that still time a call; each entry is a debt, to be removed with its fix. */
const allowed = new Set<string>();

const CLOCK = String.raw`(?:Date\.now\(\)|performance\.now\(\)|process\.hrtime(?:\.bigint)?\(\)|new Date\(\)\.getTime\(\))`;
/** A clock reading minus another time (minus a number it is a moment, not a duration), or a time minus a reading. */
const clockDifference = new RegExp(String.raw`${CLOCK}\s*-(?![-\s]*\d)|-\s*${CLOCK}`);
const sizeMatcher = /\.(?:not\.)?(?:toBeLessThan|toBeLessThanOrEqual|toBeGreaterThan|toBeGreaterThanOrEqual|toBeCloseTo)\(/;
const durationName = /^(?:elapsed|latency|duration|took|waited)(?:_?ms|Ms|_?s|Seconds)?$/i;

/** The text inside the first `expect(…)` of a line (to the matching parenthesis, or the line's end). */
function expectArgument(line: string): string | null {
  const start = line.indexOf("expect(");
  if (start < 0) return null;
  let depth = 0;
  for (let i = start + "expect".length; i < line.length; i++) {
    if (line[i] === "(") depth++;
    else if (line[i] === ")" && --depth === 0) return line.slice(start + "expect(".length, i);
  }
  return line.slice(start + "expect(".length);
}

/** One entry per line that compares an elapsed (or remaining) wall-clock time with a bound. */
function wallClockAssertions(source: string): { line: number; text: string }[] {
  const lines = source.split("\n");
  const timed = new Set<string>();
  for (const text of lines) {
    const m = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(.*)$/.exec(text);
    if (m && clockDifference.test(m[2])) timed.add(m[1]);
  }
  const found: { line: number; text: string }[] = [];
  lines.forEach((text, i) => {
    if (!sizeMatcher.test(text)) return;
    const arg = expectArgument(text);
    if (arg === null) return;
    const names = arg.match(/[A-Za-z_$][\w$]*/g) ?? [];
    if (clockDifference.test(arg) || names.some((n) => timed.has(n) || durationName.test(n))) found.push({ line: i + 1, text: text.trim() });
  });
  return found;
}

describe("wall-clock assertions", () => {
  it("recognises a timed call and leaves times the code computed alone", () => {
    const source = [
      "const started = Date.now();",
      "expect(Date.now() - started).toBeLessThan(1000);",
      "const latency = performance.now() - sentAt;",
      "expect(latency).toBeLessThan(50);",
      "expect(new Date(row.expires_at).getTime() - Date.now()).toBeGreaterThan(55_000);",
      "const { text, elapsed } = await waitThenCancel();",
      "expect(elapsed).not.toBeGreaterThan(5_000);",
      "const seconds = (Date.now() - started) / 1000;",
      "expect(seconds).toBeCloseTo(2, 0);",
      "expect(expiresAt).toBeGreaterThanOrEqual(asked + 60_000);",
      "expect(row.runAt.getTime()).toBeLessThanOrEqual(returned + 60_000);",
      "const old = new Date(Date.now() - 600_000);",
      "expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);",
      "expect(batches.length).toBeLessThanOrEqual(3);",
      "while (Date.now() - started < 3000) await sleep(50);",
      "expect(order).toEqual(['posted', 'returned']);",
      "expect(moved.lastSeenAt.getTime()).toBeGreaterThanOrEqual(old.getTime() + 1000);",
      "const wait = Date.now()-started; expect(wait).toBeLessThan(10);",
    ];
    expect(wallClockAssertions(source.join("\n")).map((f) => f.line)).toEqual([2, 4, 5, 7, 9, 18]);
  });

  it("none in the tests", () => {
    const files = scanned.flatMap((dir) => [...walkFiles(join(root, dir), testFile)]).map((file) => relative(root, file));
    expect(files.length).toBeGreaterThan(50);
    const offending = files
      .filter((file) => file !== self && !allowed.has(file))
      .flatMap((file) => wallClockAssertions(readFileSync(join(root, file), "utf8")).map((f) => `${file}:${f.line}: ${f.text}`));
    expect(offending, "assert order and outcome instead of how long a call took").toEqual([]);
  });
});
