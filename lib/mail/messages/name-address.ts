/** RFC 5322 `specials` (and controls): a display name holding one is a quoted-string, or it reads as syntax. */
const NEEDS_QUOTES = /[()<>[\]:;@\\,."\p{Cc}]/u;

/**
 * `Name <addr>` as a From header writes it, or the bare address when there is no name. A name holding an address
 * (`CEO <ceo@strict.example>`) is quoted, as a mail program writes it: unquoted, every address parser (and reader)
 * took the name's address for the sender's (found by helper-107).
 */
export function nameAddress(name: string | null, address: string): string {
  if (!name) return address;
  const shown = NEEDS_QUOTES.test(name) ? `"${name.replace(/[\\"]/g, "\\$&").replace(/[\r\n]+/g, " ")}"` : name;
  return `${shown} <${address}>`;
}
