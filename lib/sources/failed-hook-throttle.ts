import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { addressBlock } from "@/lib/http/address-block";
import { tokenBuckets } from "@/lib/http/token-buckets";

/*
 * Requests to /hooks/ that fail, throttled per client address so that they cost neither the database nor a real
 * sender anything: URLs that name no live source, and deliveries whose signature fails. Each kind has its own bucket.
 */

/**
 * Lookups of /hooks/ URLs that name no live source, per client address block (address-block.ts: an IPv6 client's
 * /64): a token bucket of UNKNOWN_HOOKS_PER_MINUTE (token-buckets.ts), on each instance. Each unknown URL costs a
 * hash and database lookups, so a client spraying random tokens is answered 429 without the database once its
 * allowance is spent. Keyed on the client, so a source's own deliveries from elsewhere never meet anyone's spray.
 */
const { take, giveBack } = tokenBuckets("__brynthUnknownHooks");

/**
 * Charges one lookup to `ip` before the database is asked, or throws `rate_limited` (429 with Retry-After); returns
 * the refund for when the URL names a live source. Charged first, as chargeAuthAttempt does: counted only after a
 * miss, every lookup of a burst sent at once passed before the first miss was counted.
 */
export function chargeHookLookup(ip: string): () => void {
  const limit = env().UNKNOWN_HOOKS_PER_MINUTE;
  if (limit === 0) return () => {};
  const block = addressBlock(ip);
  const retryAfter = take(block, limit);
  if (retryAfter > 0) {
    throw new AppError("rate_limited", "Too many requests to unknown webhook URLs from this address.", {
      fix: `Retry after ${retryAfter} s, with the URL the source's page shows.`,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  return () => giveBack(block, limit);
}

const forged = tokenBuckets("__brynthForgedDeliveries");

/**
 * Deliveries whose signature failed, charged to an allowance of the client's address of the same size
 * (UNKNOWN_HOOKS_PER_MINUTE; a bucket of its own, so neither kind of failure holds up the other): a forged delivery
 * must not spend the source's own rate (SOURCE_DELIVERIES_PER_MINUTE), or anyone who knows a signed source's URL
 * could hold its real deliveries at 429. `refuseForger` runs before the signature is checked and takes nothing, so
 * a provider's burst from one address is never held up; `chargeForgery` counts a delivery that failed it.
 */
export function refuseForger(ip: string): void {
  const limit = env().UNKNOWN_HOOKS_PER_MINUTE;
  if (limit === 0) return;
  const retryAfter = forged.wait(addressBlock(ip), limit);
  if (retryAfter > 0) {
    throw new AppError("rate_limited", "Too many deliveries with a bad signature from this address.", {
      fix: `Retry after ${retryAfter} s, signed with the source's current secret.`,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

export function chargeForgery(ip: string): void {
  const limit = env().UNKNOWN_HOOKS_PER_MINUTE;
  if (limit > 0) forged.take(addressBlock(ip), limit);
}
