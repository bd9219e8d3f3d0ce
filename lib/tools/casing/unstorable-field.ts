import { wellFormed } from "@/lib/text/well-formed";

/** Text PostgreSQL cannot store as given, and why. */
const problem = (s: string) =>
  s.includes("\u0000") ? "a NUL character (U+0000)" : !wellFormed(s) ? "a lone surrogate (a character that is not valid Unicode text)" : null;

/**
 * The first place a call's arguments hold text PostgreSQL cannot store — a NUL character (U+0000), which text and
 * jsonb refuse, or a lone surrogate, which jsonb refuses and text would turn into U+FFFD — as a path in the caller's
 * own keys, with what is wrong there; or null. Such an argument must be refused before any query sees it, as the
 * caller's error: otherwise a statement fails inside the database (at once, or later in a job) and the caller gets
 * a 500.
 */
export function unstorableField(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; problem: string } | null {
  if (typeof value === "string") {
    const p = problem(value);
    return p ? { path, problem: p } : null;
  }
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const at = unstorableField(v, [...path, i]);
      if (at) return at;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const p = problem(k);
      if (p) return { path: [...path, k], problem: p };
      const at = unstorableField(v, [...path, k]);
      if (at) return at;
    }
  }
  return null;
}
