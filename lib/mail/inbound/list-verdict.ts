import { domainToASCII } from "node:url";

export interface ListMatch {
  /** The mailbox's own entry (else the project's). */
  own: boolean;
  type: "allow" | "block";
  /** A lower-case address, or a domain that also covers its subdomains. */
  entry: string;
}

/** A local part (64), `@` and a domain (255): more than any address, with room for a Unicode domain's spelling. */
const MAX_ADDRESS = 320;

/**
 * What a sender can be matched against: the address itself, then its domain and each parent domain, the domain
 * spelled as entries are (entryDomain). An address literal (`[192.0.2.1]`) has no parent domains.
 */
export function listCandidates(address: string | null): string[] {
  if (!address) return [];
  const a = address.trim().toLowerCase();
  // No entry is longer than 254 characters (list-entry-value.ts), so a longer sender matches none; and the 200,000
  // labels of a 400 KB one made as many candidates, each a copy of the rest: the process ran out of memory.
  if (a.length > MAX_ADDRESS) return [];
  const at = a.lastIndexOf("@");
  if (at <= 0 || at === a.length - 1) return [a];
  const domain = entryDomain(a.slice(at + 1));
  const own = `${bareLocalPart(a.slice(0, at))}@${domain}`;
  if (domain.startsWith("[")) return [own, domain];
  const labels = domain.split(".");
  return [own, ...labels.map((_, i) => labels.slice(i).join(".")).filter(Boolean)];
}

/**
 * A domain as list entries hold it (list-entry-value.ts): ASCII, lower case, no root dot. IDNA's mapping (node's
 * domainToASCII) turns every spelling a reader takes for the same name into that one — full-width letters,
 * invisible characters, Unicode labels as xn-- — so a blocked `evil.example` no longer passes as `evil.example.`,
 * `ｅｖｉｌ.example` or `evil\u200b.example`. What is no domain name (an address literal) stays as written.
 */
function entryDomain(domain: string): string {
  let end = domain.length;
  while (end > 0 && domain[end - 1] === ".") end--;
  const bare = domain.slice(0, end);
  return domainToASCII(bare) || bare;
}

/** A local part as entries hold it: one quoted for no reason (`"eve"`, `"e\ve"`) is the same mailbox (RFC 5322 §3.4.1). */
function bareLocalPart(local: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(local);
  if (!quoted) return local;
  const inner = quoted[1].replace(/\\(.)/g, "$1");
  return /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(inner) ? inner : local;
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
