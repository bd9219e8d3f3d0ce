/**
 * A secret that leaves no trace in the ledger: run-tool digests every tool input, and a digest of a weak secret
 * could be guessed offline by anyone who can read the ledger. Enumerable keys: none, so it digests as `{}`.
 */
export class RedactedSecret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return "[redacted]";
  }
}

export const reveal = (s: string | RedactedSecret | undefined) => (s instanceof RedactedSecret ? s.reveal() : s);
