import { chargeAuthAttempt } from "@/lib/http/auth-throttle";

const g = globalThis as { __brynthCredentialLookups?: Map<string, Promise<unknown>> };
const inFlight = () => (g.__brynthCredentialLookups ??= new Map());

/**
 * A presented credential looked up in the database, charged to the client's address before the lookup and refunded
 * when `known` says the credential is a real one. Counted only after the lookup, every guess sent at once passed the
 * throttle while the first lookups waited on the pool (200 at once: all 200 checked against a limit of 20).
 * Lookups of one credential (`flight`: its hash, with whatever else the query reads) that overlap share one query
 * and one charge, so an agent's burst on a cold cache is not taken for guessing: only distinct secrets cost.
 */
export function chargedLookup<T>(ip: string, flight: string, lookup: () => Promise<T>, known: (found: T) => boolean): Promise<T> {
  const running = inFlight().get(flight) as Promise<T> | undefined;
  if (running) return running;
  const refund = chargeAuthAttempt(ip);
  const done = lookup()
    .then(
      (found) => {
        if (known(found)) refund();
        return found;
      },
      (err: unknown) => {
        // A failed query proves nothing about the credential: the client is not charged for our fault.
        refund();
        throw err;
      },
    )
    .finally(() => inFlight().delete(flight));
  inFlight().set(flight, done);
  return done;
}
