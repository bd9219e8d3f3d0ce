/**
 * A dashboard page's query (Next's `searchParams`) as plain strings: the first value of a repeated key, and every
 * NUL replaced by U+FFFD. No stored text holds a NUL and PostgreSQL refuses one in a parameter, so a filter or an id
 * carrying one (`/ledger?op=%00`) failed the whole page with a 500; U+FFFD matches nothing just the same, and shows
 * in the filter box as the odd character it was.
 */
export function pageParams(params: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, (Array.isArray(v) ? v[0] : v)?.replaceAll("\u0000", "\uFFFD")]));
}
