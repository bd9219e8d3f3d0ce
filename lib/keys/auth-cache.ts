import type { Executor } from "@/lib/db/client";
import type { ApiKey, McpSession } from "@/lib/db/schema/keys";
import { listen, notify } from "@/lib/db/notify";

/**
 * API keys and MCP sessions as authenticated moments ago, so a busy agent does not cost a query per call. What
 * changes them (revocation, a session ended or renamed) NOTIFYs every instance on commit and empties its cache;
 * entries also expire after MAX_AGE_MS, which bounds how long a lost notification could matter. Until this
 * process's LISTEN is in place, nothing is cached.
 */
const CHANNEL = "brynth_auth";
const MAX_AGE_MS = 10_000;
const MAX_ENTRIES = 10_000;

export type CachedKey = ApiKey & { projectName: string };

interface Cache {
  keys: Map<string, { key: CachedKey; at: number }>;
  sessions: Map<string, { session: McpSession; at: number }>;
  /** Bumped by every invalidation: a lookup that started before one must not store what it read. */
  epoch: number;
  listening: boolean;
  listen?: Promise<unknown>;
}

const g = globalThis as { __brynthAuthCache?: Cache };
const cache = (): Cache => (g.__brynthAuthCache ??= { keys: new Map(), sessions: new Map(), epoch: 0, listening: false });

function clear() {
  const c = cache();
  c.keys.clear();
  c.sessions.clear();
  c.epoch++;
}

function ensureListening(c: Cache) {
  c.listen ??= listen(CHANNEL, clear).then(
    () => {
      clear();
      c.listening = true;
    },
    (err) => {
      c.listen = undefined;
      console.error("[brynth] auth cache disabled: LISTEN failed", err);
    },
  );
}

export function cachedKey(hash: string): CachedKey | undefined {
  const hit = cache().keys.get(hash);
  return hit && Date.now() - hit.at < MAX_AGE_MS ? hit.key : undefined;
}

export function cachedSession(id: string): McpSession | undefined {
  const hit = cache().sessions.get(id);
  return hit && Date.now() - hit.at < MAX_AGE_MS ? hit.session : undefined;
}

/** The epoch to hand back to `remember` after reading the database. */
export function cacheEpoch(): number {
  const c = cache();
  ensureListening(c);
  return c.epoch;
}

/** Stores what a lookup read, unless something was invalidated since it began (it may have read the old row). */
export function remember(epoch: number, hash: string, key: CachedKey, session?: McpSession | null) {
  const c = cache();
  if (!c.listening || epoch !== c.epoch) return;
  if (c.keys.size >= MAX_ENTRIES || c.sessions.size >= MAX_ENTRIES) clear();
  const at = Date.now();
  c.keys.set(hash, { key, at });
  if (session) c.sessions.set(session.id, { session, at });
}

/**
 * Inside the transaction that revokes a key or changes a session: every instance forgets what it cached when it
 * commits. This process forgets at once too, so its own next request reads the database.
 */
export async function invalidateAuth(tx: Executor): Promise<void> {
  clear();
  await notify(tx, CHANNEL, "");
}
