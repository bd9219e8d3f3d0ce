import type { z } from "zod";
import { ZOD_DEFAULT } from "@/lib/forms/plain-issue";

const KINDS: Record<string, string> = { string: "text", number: "a number", boolean: "true or false", array: "a list", object: "an object" };
const count = (n: unknown) => Number(n).toLocaleString("en");

/**
 * One zod issue as what follows a named key ("effect" + "must be one of allow, deny"), for messages about a JSON
 * document the owner wrote, where the key is the only way to say which value is wrong. A schema's own message is
 * kept ("must be a channel id" as is; "1 to 64 letters…" after "must be").
 */
export function issueWords(issue: z.core.$ZodIssue): string {
  if (issue.message && !ZOD_DEFAULT.test(issue.message)) return /^(must|is|are|can)\b/.test(issue.message) ? issue.message : `must be ${issue.message}`;
  switch (issue.code) {
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "invalid_union": {
      // oneOrMany(x): the branch of the value's shape says what is wrong with it (a list of 51 is "can list at most
      // 50", not "must be text"). The list branch, tried first here, is of the value's shape unless it says the value
      // is no list; a value of neither shape is told what a single value must be.
      const shaped = [...issue.errors].reverse().find((errs) => errs[0] && !(errs[0].code === "invalid_type" && errs[0].path.length === 0));
      const first = (shaped ?? issue.errors[0])?.[0];
      return first ? issueWords(first) : "is not a value this accepts";
    }
    case "too_big":
      if (issue.origin === "string") return `must be at most ${count(issue.maximum)} characters`;
      if (issue.origin === "array") return `can list at most ${count(issue.maximum)}`;
      return `must be at most ${count(issue.maximum)}`;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "must not be empty" : `must be at least ${count(issue.minimum)} characters`;
      if (issue.origin === "array") return `must list at least ${count(issue.minimum)}`;
      return `must be at least ${count(issue.minimum)}`;
    case "invalid_type":
      // zod does not report the input; its message says what it received.
      return / received undefined$/.test(issue.message) ? "is required" : `must be ${KINDS[issue.expected] ?? issue.expected}`;
    case "invalid_format":
      return issue.format === "regex" ? "is not in the expected format" : `must be a valid ${issue.format}`;
    case "unrecognized_keys":
      return `has unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    default:
      return "is not valid";
  }
}
