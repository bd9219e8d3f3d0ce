import { KEY_MAX_BYTES } from "@/lib/disk/limits";
import { wellFormed } from "@/lib/text/well-formed";

/** Keys under this prefix belong to state_save. */
export const STATE_PREFIX = "state/";

/** Why `key` is not a valid disk key (1–512 bytes of UTF-8, no control characters), or null. */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return "must not be empty";
  if (!wellFormed(key)) return "must be valid UTF-8 (no lone surrogates)";
  if (Buffer.byteLength(key) > KEY_MAX_BYTES) return `must be at most ${KEY_MAX_BYTES} bytes of UTF-8`;
  if (/\p{Cc}/u.test(key)) return "must not contain control characters";
  return null;
}

/**
 * Why a key cannot be written though keyProblem allows it: `.` or `..` between slashes. A URL's path cannot carry
 * them (clients resolve `/kv/..` away, and the API refuses what they send as is), so REST could never reach the key
 * MCP wrote. Keys written before this rule stay readable and deletable.
 */
export function dotSegmentProblem(key: string): string | null {
  return key.split("/").some((s) => s === "." || s === "..") ? "must not have . or .. between slashes (a URL cannot carry them)" : null;
}

/** Text a prefix or cursor may hold: the key rules, but empty is fine. */
export function prefixProblem(prefix: string, maxBytes: number): string | null {
  if (!wellFormed(prefix)) return "must be valid UTF-8 (no lone surrogates)";
  if (Buffer.byteLength(prefix) > maxBytes) return `must be at most ${maxBytes} bytes of UTF-8`;
  if (/\p{Cc}/u.test(prefix)) return "must not contain control characters";
  return null;
}

export const stateKey = (taskId: string) => `${STATE_PREFIX}${taskId}`;
