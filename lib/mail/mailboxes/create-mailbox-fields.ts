import { z } from "zod";
import { RESERVED } from "@/lib/mail/project-address";

/**
 * The checks on what an agent may set on an inbox (design §1.4 "Inboxes" and §4 A "Bad inputs"): create_inbox and
 * update_inbox share them, so an update cannot store what a create would refuse.
 */

export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX = 64;
export const METADATA_VALUE_BYTES = 1024;
export const METADATA_TOTAL_BYTES = 8192;

/**
 * A local part: lower-case `[a-z0-9._-]`, 1–64, not starting or ending with `.` or `-`, no `..`, not reserved.
 * Upper case is refused rather than lowered: an agent that asked for `Sales` would otherwise be told it got `sales`
 * only by reading the result.
 */
export const usernameField = z
  .string()
  .superRefine((u, ctx) => {
    const problem = usernameProblem(u);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: u });
  })
  .describe("The local part (before @): lower-case letters, digits, `.`, `_`, `-`, 1–64 characters. Default: a random one.");

export function usernameProblem(u: string): string | null {
  if (u.length < 1 || u.length > 64) return "must be 1 to 64 characters";
  if (/[A-Z]/.test(u)) return "must be lower case (letters a-z)";
  if (!/^[a-z0-9._-]+$/.test(u)) return "may contain only a-z, 0-9, '.', '_' and '-'";
  if (/^[.-]|[.-]$/.test(u)) return "may not start or end with '.' or '-'";
  if (u.includes("..")) return "may not contain '..'";
  if (RESERVED.has(u)) return `'${u}' is reserved`;
  return null;
}

/** Shown in the From header of its mail: one line, no control characters. */
export const displayNameField = z
  .string()
  .trim()
  .min(1)
  .max(128)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  .regex(/^[^\u0000-\u001f\u007f]*$/, "must be one line without control characters")
  .describe("A name shown beside the address, e.g. `Acme Support`; at most 128 characters.");

export const mailboxStatusField = z.enum(["active", "disabled"]).describe("`disabled`: mail to it is refused at RCPT and it sends nothing.");

const metadataValue = z.union([z.string(), z.number(), z.boolean()]);
const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

/**
 * Problems of a complete metadata object, each with the key it names (`metadata.<key>`): ≤ 50 keys of ≤ 64
 * characters, string values ≤ 1 KB, the whole ≤ 8 KB as JSON. The key that crosses a total is the one named.
 */
export function metadataProblems(metadata: Record<string, unknown>): Array<{ key: string; message: string }> {
  const problems: Array<{ key: string; message: string }> = [];
  let total = 2; // the braces
  let overTotal = false;
  Object.keys(metadata).forEach((key, i) => {
    const value = metadata[key];
    if (key.length < 1 || key.length > METADATA_KEY_MAX) problems.push({ key, message: `keys are 1 to ${METADATA_KEY_MAX} characters` });
    else if (i === METADATA_MAX_KEYS) problems.push({ key, message: `at most ${METADATA_MAX_KEYS} keys` });
    else if (typeof value === "string" && utf8(value) > METADATA_VALUE_BYTES)
      problems.push({ key, message: `values are at most ${METADATA_VALUE_BYTES} bytes` });
    else if (typeof value === "number" && !Number.isFinite(value)) problems.push({ key, message: "must be a finite number" });
    total += utf8(JSON.stringify(key)) + 1 + utf8(JSON.stringify(value) ?? "") + (i > 0 ? 1 : 0);
    if (total > METADATA_TOTAL_BYTES && !overTotal) {
      overTotal = true;
      problems.push({ key, message: `metadata is at most ${METADATA_TOTAL_BYTES} bytes in all` });
    }
  });
  return problems;
}

/** Flat metadata: string, number or boolean values; every problem names `metadata.<key>` (the record adds the key). */
export const metadataField = z
  .record(z.string(), metadataValue)
  .superRefine((m, ctx) => {
    for (const p of metadataProblems(m)) ctx.addIssue({ code: "custom", path: [p.key], message: p.message });
  })
  .describe("Your own flat key-value data: string, number or boolean values; at most 50 keys, 1 KB a value, 8 KB in all.");

/** update_inbox: a null value removes that key; the limits are checked on the merged result. */
export const metadataPatchField = z
  .record(z.string(), metadataValue.nullable())
  .nullable()
  .describe("Merged into the inbox's metadata: a null value removes that key; `metadata: null` clears all of it.");
