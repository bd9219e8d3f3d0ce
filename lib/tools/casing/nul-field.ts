/**
 * Where a call's arguments hold a NUL character (U+0000), as a path in the caller's own keys, or null. PostgreSQL
 * text and jsonb cannot hold one, so such an argument must be refused before any query sees it, as the caller's
 * error: otherwise the first lookup fails inside the database and the caller gets a 500.
 */
export function nulField(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const at = nulField(v, [...path, i]);
      if (at) return at;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes("\u0000")) return [...path, k];
      const at = nulField(v, [...path, k]);
      if (at) return at;
    }
  }
  return null;
}
