/**
 * The bytes of messages the SMTP listener holds in memory at once, across all its connections. Each transfer is
 * kept whole until it is stored (parsing needs all of it), so without a budget the listener held up to
 * SMTP_MAX_CLIENTS × MAIL_MAX_MESSAGE_BYTES (200 × 25 MB = 5 GB by default) for anyone who opened enough
 * connections and sent large messages slowly. A transfer that does not fit is read to its end and dropped, and its
 * client is answered 452 (insufficient system storage), a temporary failure it retries.
 */
export function byteBudget(limit: number) {
  let used = 0;
  return {
    /** One transfer's share: `add` takes more bytes while the budget allows, `release` gives them all back, once. */
    hold() {
      let held = 0;
      let released = false;
      return {
        add(bytes: number): boolean {
          if (released || used + bytes > limit) return false;
          used += bytes;
          held += bytes;
          return true;
        },
        release() {
          if (released) return;
          released = true;
          used -= held;
          held = 0;
        },
      };
    },
  };
}
