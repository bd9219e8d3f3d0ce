/** The longest a pooled connection waits before it tries the database again, in seconds. */
export const MAX_RECONNECT_DELAY_S = 1;

/**
 * postgres.js's `backoff`: how long a pooled connection that failed waits before its next connect, in seconds.
 * The library's own curve (3^n / 100 s, up to 20 s) counts failures across the whole pool, not per connection:
 * a PostgreSQL restart fails all ten connections at once, each refused attempt while it is down adds one, and
 * six or seven failures in its second of downtime left every connection waiting 7 to 20 s more with the server
 * long back. Every request on the instance stalled that long (the chaos run measured 11 to 13 s after a restart
 * of 0.3 s). The same curve held to 1 s: a database that stays down is tried about once a second a connection,
 * a few connects a second from an instance, and one that is back is used within a second.
 */
export function reconnectDelaySeconds(failures: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** failures / 100, MAX_RECONNECT_DELAY_S);
}
