import { readdirSync, readFileSync } from "node:fs";
import { walkFiles } from "@/lib/testing/walk-files";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * No check is switched off without saying why on the same line:
 * - `// biome-ignore lint/<group>/<rule>: <reason>` (also -all and -start; -end closes a range and needs none);
 * - `// @ts-expect-error <reason>` (or `@ts-ignore`, `@ts-nocheck`), the reason after a space, `:` or `--`;
 * - `eslint-disable` in any form: the project lints with Biome, which does not read it, so it would silence nothing.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
const scanned = ["app", "components", "lib", "e2e", "bench", "scripts", "drizzle"];
const sourceFile = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|css)$/;
const self = relative(root, fileURLToPath(import.meta.url));

/** At least one word of three letters: "ok", "-" or a placeholder such as `<explanation>` is no reason. */
function isReason(text: string): boolean {
  const t = text
    .replace(/\*\/.*$/, "")
    .replace(/^[\s:\-–—]+/, "")
    .trim();
  if (/^<[^>]*>$/.test(t) || /^(todo|fixme|reason|explanation|because)\.?$/i.test(t)) return false;
  return /\p{L}{3,}/u.test(t);
}

/** Whether one comment's text (what follows its `//`, `/*` or leading `*`) is a suppression without a reason. */
function lacksReason(comment: string): boolean {
  const body = comment.replace(/^[*/]+/, "");
  if (/^\s*eslint-disable/.test(body)) return true;
  const ts = /^\s*@ts-(?:ignore|expect-error|nocheck)\b(.*)$/.exec(body);
  if (ts) return !isReason(ts[1]);
  const biome = /^\s*biome-ignore(-all|-start|-end)?\b(.*)$/.exec(body);
  if (!biome || biome[1] === "-end") return false;
  const colon = biome[2].indexOf(":");
  return colon < 0 || !isReason(biome[2].slice(colon + 1));
}

/** One entry per line holding a suppression comment without a reason: its number and the line. */
function unreasonedSuppressions(source: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  source.split("\n").forEach((text, i) => {
    const bodies = [...text.matchAll(/\/\/|\/\*/g)].map((m) => text.slice(m.index + m[0].length));
    const continuation = /^\s*\*(?!\/)(.*)$/.exec(text);
    if (continuation) bodies.push(continuation[1]);
    if (bodies.some(lacksReason)) found.push({ line: i + 1, text: text.trim() });
  });
  return found;
}

describe("suppression comments", () => {
  it("recognises a reason and its absence", () => {
    const lines = [
      "// biome-ignore lint/suspicious/noExplicitAny: kinds with different payloads share this list",
      "// biome-ignore lint/suspicious/noExplicitAny: <explanation>",
      "// biome-ignore lint/suspicious/noExplicitAny:",
      "// biome-ignore lint/suspicious/noExplicitAny",
      "  {/* biome-ignore lint/a11y/useSemanticElements: a named box around a viewer */}",
      "  {/* biome-ignore lint/a11y/useSemanticElements: */}",
      "// biome-ignore-start lint/style/useTemplate: generated table, kept as emitted",
      "// biome-ignore-end lint/style/useTemplate",
      "// @ts-expect-error the SDK's types omit the field the server sends",
      "// @ts-expect-error -- untyped module",
      "// @ts-expect-error",
      "// @ts-ignore: ok",
      "// eslint-disable-next-line @typescript-eslint/no-explicit-any -- with a reason, but Biome does not read it",
      "const s = 'biome-ignore is a word in this string';",
      " * the linter would flag it, so we say why instead of adding @ts-ignore",
      'const url = "http://example.com"; // biome-ignore lint/style/noParameterAssign',
      "/** @ts-expect-error */",
    ];
    expect(unreasonedSuppressions(lines.join("\n")).map((f) => f.line)).toEqual([2, 3, 4, 6, 11, 12, 13, 16, 17]);
  });

  it("none in the source tree lacks a reason", () => {
    const files = [
      ...scanned.flatMap((dir) => [...walkFiles(join(root, dir), sourceFile)]),
      ...readdirSync(root)
        .filter((name) => sourceFile.test(name))
        .map((name) => join(root, name)),
    ];
    expect(files.length).toBeGreaterThan(100);
    const offending = files
      .map((file) => relative(root, file))
      .filter((file) => file !== self)
      .flatMap((file) => unreasonedSuppressions(readFileSync(join(root, file), "utf8")).map((f) => `${file}:${f.line}: ${f.text}`));
    expect(offending, "give the reason on the same line, e.g. `// biome-ignore lint/<group>/<rule>: <why>`").toEqual([]);
  });
});
