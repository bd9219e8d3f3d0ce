import type { z } from "zod";

/** zod's own messages ("Too big: expected string to have <=100 characters"): an owner reads words of ours instead. */
export const ZOD_DEFAULT = /^(Too (big|small)|Invalid|Unrecognized key|Expected |Required$)/;

/** "not a bot token" → "Not a bot token." — every message on a form starts with a capital and ends with a stop. */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  // A message that starts with a name ("gmail.com is not…", "whsec_… secrets…") keeps the name as it is spelled.
  const first = t.split(/\s/, 1)[0];
  const capped = /[.@_/:\d]/.test(first.replace(/[.,;:!?]$/, "")) ? t : t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(capped) ? capped : `${capped}.`;
}

const unit = (n: number, one: string) => `${n.toLocaleString("en")} ${one}${n === 1 ? "" : "s"}`;

/**
 * One validation issue in plain words for the field it sits on: no path, no "field:" prefix, no type names. A
 * message a schema spells out itself (`.min(1, "Name the project.")`) is kept; zod's defaults are rewritten.
 */
export function plainIssue(issue: z.core.$ZodIssue): string {
  if (issue.message && !ZOD_DEFAULT.test(issue.message)) return sentence(issue.message);
  switch (issue.code) {
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `Use at most ${unit(max, "character")}.`;
      if (issue.origin === "array" || issue.origin === "set") return `Choose at most ${max.toLocaleString("en")}.`;
      return `Use a number no larger than ${max.toLocaleString("en")}.`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? "Fill this in." : `Use at least ${unit(min, "character")}.`;
      if (issue.origin === "array" || issue.origin === "set") return min <= 1 ? "Choose at least one." : `Choose at least ${min}.`;
      return `Use a number of at least ${min.toLocaleString("en")}.`;
    }
    case "invalid_type":
      // An empty number box reads as NaN.
      return issue.input === undefined || issue.input === null || issue.input === "" || Number.isNaN(issue.input)
        ? "Fill this in."
        : "This value is not of the right kind.";
    case "invalid_format": {
      const what: Record<string, string> = { email: "an email address", url: "a URL", uuid: "an id", regex: "the expected format" };
      return `Enter ${what[issue.format] ?? `a valid ${issue.format}`}.`;
    }
    case "invalid_value":
      return "Choose one of the offered options.";
    case "unrecognized_keys":
      return `This form does not take ${issue.keys.join(", ")}.`;
    default:
      return "Check this value.";
  }
}

/** The field an issue belongs to, in the dotted form the forms use ("scopes", "rules.0.tool"); "" for the whole form. */
export const issueField = (issue: z.core.$ZodIssue) => issue.path.map(String).join(".");

/** Per field, the first issue in plain words; issues on the whole input are under "". */
export function plainFieldErrors(error: { issues: readonly z.core.$ZodIssue[] }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issueField(issue);
    out[field] ??= plainIssue(issue);
  }
  return out;
}

/**
 * The fields an AppError's details name, with their messages in plain words. Details are either a list of
 * `{ field, message }` (validation_error, lib/validation.ts) or one object with a `field` (a conflict on one field).
 */
export function detailFieldErrors(details: unknown, fallback: string): Record<string, string> {
  const list = Array.isArray(details) ? details : details && typeof details === "object" ? [details] : [];
  const out: Record<string, string> = {};
  for (const d of list) {
    if (!d || typeof d !== "object") continue;
    const { field, message } = d as { field?: unknown; message?: unknown };
    if (typeof field !== "string" || !field || field === "(input)") continue;
    const text = typeof message === "string" && message ? message : fallback.replace(`${field}: `, "");
    out[field] ??= sentence(text);
  }
  return out;
}

/**
 * An AppError's fields in plain words: a domain function's own schema failure (validationError keeps its zod issues
 * aside) is worded issue by issue; any other error's details are read as they are.
 */
export function appErrorFieldErrors(err: { message: string; details?: unknown }): Record<string, string> {
  const issues = (err as { zodIssues?: readonly z.core.$ZodIssue[] }).zodIssues;
  if (issues) {
    const { "": _whole, ...fields } = plainFieldErrors({ issues });
    return fields;
  }
  return detailFieldErrors(err.details, err.message);
}
