import { domainToASCII, domainToUnicode } from "node:url";

/**
 * Why DMARC's verdict does not vouch for the From this instance shows, or null when it does. The sender agents and
 * the lists see is mailparser's first From address; DMARC judged the From addresses mailauth read with its own
 * header parser. Where the two differ, a pass is about someone else:
 * - several From addresses (in one header or several): mailauth skips DMARC and the first one showed as a normal
 *   sender; RFC 7489 §6.6.1 lets a receiver refuse such mail, and it cannot be vouched for (helper-107);
 * - a From line the parsers split differently (led by a vertical tab, a form feed or 0xA0, which mailauth reads as
 *   folding): the shown From was never judged, and one DMARC passed stood beside it;
 * - a domain spelt with characters IDNA maps to others (full-width letters, `ſ`, a zero-width space): the lists and
 *   readers take it for `strict.example`, DMARC looked up a different name and found no record.
 */
export function fromDisagreement(judged: readonly string[], shown: string | null): string | null {
  if (judged.length > 1) return `${judged.length} From addresses: DMARC vouches for none of them`;
  if (!shown) return null;
  const seen = judged[0];
  if (seen === undefined || sameAddress(seen) !== sameAddress(shown)) {
    return "the From shown is not the From that was authenticated (its header was read two ways)";
  }
  const domain = shown.slice(shown.lastIndexOf("@") + 1).trim();
  if (!plainlySpelt(domain)) return `the From domain is spelt with characters that stand for others (${domainToASCII(domain) || "no domain"})`;
  return null;
}

/**
 * An address as both parsers may spell it: mailparser shows an `xn--` domain in Unicode, mailauth keeps it as
 * written; case does not matter. The domain's look-alike spellings are plainlySpelt's to judge.
 */
function sameAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf("@");
  return at < 0 ? a : `${a.slice(0, at)}@${domainToASCII(a.slice(at + 1)) || a.slice(at + 1)}`;
}

/** Already in the form IDNA maps it to, up to case: `bücher.example` is, `ｓｔｒｉｃｔ.example` is not. */
function plainlySpelt(domain: string): boolean {
  const lower = domain.toLowerCase();
  if (/^[\x21-\x7e]*$/.test(lower)) return true;
  const ascii = domainToASCII(lower);
  return ascii !== "" && domainToUnicode(ascii) === lower;
}

/**
 * A DKIM signature with `l=` covers only the start of the body: what follows it (an appended "our IBAN changed")
 * was signed by no one. mailauth still passes it; DMARC then passed on it alone. RFC 6376 §8.2.
 */
export interface DkimCoverage {
  /** Bytes of the body after the signed length, of the aligned signature DMARC passed on (mailauth's alignment). */
  unsignedBytes: number;
  /** SPF passed aligned as well, so DMARC stands without the signature. */
  spfAligned: boolean;
}

export function undersizedPass(c: DkimCoverage): string | null {
  return c.unsignedBytes > 0 && !c.spfAligned ? `DMARC passed on a signature that leaves ${c.unsignedBytes} bytes of the body unsigned (l=)` : null;
}
