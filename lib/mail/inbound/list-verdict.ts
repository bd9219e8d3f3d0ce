export interface ListMatch {
  /** The mailbox's own entry (else the project's). */
  own: boolean;
  type: "allow" | "block";
  /** A lower-case address, or a domain that also covers its subdomains. */
  entry: string;
}

/** What a sender can be matched against: the address itself, then its domain and each parent domain. */
export function listCandidates(address: string | null): string[] {
  if (!address) return [];
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf("@");
  if (at <= 0 || at === a.length - 1) return [a];
  const labels = a.slice(at + 1).split(".");
  return [a, ...labels.map((_, i) => labels.slice(i).join(".")).filter(Boolean)];
}

/**
 * Whether the lists refuse a sender (design L1). The mailbox's own list is consulted first and the project's only
 * when the mailbox's says nothing. In a scope, the most specific matching entry decides (an address over a domain,
 * a subdomain over its parent; allow over block at the same level); with no match, a non-empty allow list in that
 * scope refuses everyone not on it.
 */
export function listVerdict(matches: ListMatch[], allowLists: { own: boolean; project: boolean }): boolean {
  for (const own of [true, false]) {
    const best = matches.filter((m) => m.own === own).sort((a, b) => specificity(b) - specificity(a))[0];
    if (best) return best.type === "block";
    if (own ? allowLists.own : allowLists.project) return true;
  }
  return false;
}

/** Addresses rank above every domain; longer domains above their parents; allow breaks a tie. */
const specificity = (m: ListMatch) => (m.entry.includes("@") ? 10_000 : m.entry.length) * 2 + (m.type === "allow" ? 1 : 0);
