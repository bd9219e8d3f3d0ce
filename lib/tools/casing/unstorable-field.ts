import { unstorableText } from "@/lib/db/storable";

/**
 * The first place a call's arguments hold text PostgreSQL cannot store — a NUL character (U+0000), which text and
 * jsonb refuse, or a lone surrogate, which jsonb refuses and text would turn into U+FFFD — as a path in the caller's
 * own keys, with what is wrong there; or null. Such an argument must be refused before any query sees it, as the
 * caller's error: otherwise a statement fails inside the database (at once, or later in a job) and the caller gets
 * a 500.
 */
export function unstorableField(
  value: unknown,
  path: (string | number)[] = [],
  /** Top-level keys not checked: arguments kept as the JSON text sent (a tool's `jsonText`). */
  skip: ReadonlySet<string> = new Set(),
): { path: (string | number)[]; problem: string } | null {
  if (typeof value === "string") {
    const p = unstorableText(value);
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
      if (path.length === 0 && skip.has(k)) continue;
      // JSON.parse makes `__proto__` an own key, but copying it into the parsed input sets a prototype instead: the
      // key vanished without a word (update_inbox's metadata answered 200 without it).
      const p = k === "__proto__" ? "the key __proto__, which cannot be kept as given" : unstorableText(k);
      if (p) return { path: [...path, k], problem: p };
      const at = unstorableField(v, [...path, k]);
      if (at) return at;
    }
  }
  return null;
}
