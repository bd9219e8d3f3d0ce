import { createHmac, randomBytes } from "node:crypto";
import type { Executor } from "@/lib/db/client";
import type { Owner } from "@/lib/db/schema/owners";
import { checkOwnerPassword, ownerByEmail } from "@/lib/owners/find-owner";

/**
 * Owner HTTP Basic credentials verified moments ago, so a script's every request does not pay argon2id (about as
 * much CPU as the rest of the request several times over: bench/owner-rest.ts). What is kept is a keyed hash (HMAC
 * with a per-process random key) of the owner's id, the stored password hash and the presented password: never the
 * password, nor anything that could be checked against a guess outside this process. The owner row is read on every
 * request, and a changed password changes its stored hash (argon2 salts each one), so after a change the old
 * credentials miss on every instance at once, with no message between them. Only successes are kept: a wrong
 * password always pays argon2id and the failure throttle. Entries live `ttlMs`, at most `max` of them.
 */
export function verifiedCredentialCache(opts: { ttlMs: number; max: number; now?: () => number }) {
  const secret = randomBytes(32);
  const now = opts.now ?? Date.now;
  const verified = new Map<string, number>();
  /** Checks under way, by the same key as `verified`: bounded by the attempts the throttle lets through. */
  const verifying = new Map<string, Promise<Owner | null>>();
  let ttlMs = opts.ttlMs;
  const stats = { hits: 0, misses: 0 };
  const keyOf = (owner: Owner, password: string) =>
    createHmac("sha256", secret).update(owner.id).update("\0").update(owner.passwordHash).update("\0").update(password).digest("base64url");

  return {
    stats,
    /**
     * The owner whose email and password these are, else null; argon2id only when not verified within `ttlMs`.
     * `charge` runs just before argon2id and returns the refund, called when the password was right
     * (auth-throttle.ts chargeAuthAttempt); it may throw to refuse the attempt.
     */
    async check(db: Executor, email: string, password: string, charge: () => () => void = () => () => {}): Promise<Owner | null> {
      const owner = await ownerByEmail(db, email);
      const key = owner ? keyOf(owner, password) : null;
      const until = key ? verified.get(key) : undefined;
      if (owner && until !== undefined && until > now()) {
        stats.hits++;
        return owner;
      }
      stats.misses++;
      if (key) verified.delete(key);
      // The same credentials already being checked (a script's first requests, sent together) share that check:
      // one argon2id and one charge against the throttle, not one each.
      const same = key ? verifying.get(key) : undefined;
      if (same) return same;
      const refund = charge();
      const checking = checkOwnerPassword(db, email, password).then((checked) => {
        if (checked) refund();
        // Kept only if the hash verified is the one the key names (a change may have landed in between).
        if (checked && key && ttlMs > 0 && checked.passwordHash === owner?.passwordHash) {
          if (verified.size >= opts.max) verified.delete(verified.keys().next().value as string);
          verified.set(key, now() + ttlMs);
        }
        return checked;
      });
      if (!key) return checking;
      verifying.set(key, checking);
      return checking.finally(() => verifying.delete(key));
    },
    /** 0 turns caching off (bench/owner-rest.ts measures Basic both ways in one run). */
    setTtl(ms: number) {
      ttlMs = ms;
      verified.clear();
    },
  };
}

/** The process's one cache, used by owner REST's HTTP Basic (lib/auth/authenticate-owner.ts). */
export const ownerBasicCache = verifiedCredentialCache({ ttlMs: 60_000, max: 1_000 });
