import { and, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { oauthGrants } from "@/lib/db/schema/oauth";
import { ownerSessions } from "@/lib/db/schema/owners";
import { listen } from "@/lib/db/notify";
import { OWNER_SESSIONS_CHANNEL } from "@/lib/owners/owner-session-ends";

/** The channel revokeKey (and every key change) notifies after commit (auth-cache.ts's keyCache). */
const KEYS_CHANNEL = "brynth_auth_keys";
/** The channel revokeGrant (and every token change) notifies after commit (token-cache.ts's grantTokenCache). */
const GRANTS_CHANNEL = "brynth_auth_grants";

type Watchers = Map<string, Set<() => void>>;
type WatcherState = { watchers: Watchers; notices: number };
type WatcherName = "__brynthStreamKeys" | "__brynthStreamGrants" | "__brynthStreamOwnerSessions";
const g = globalThis as unknown as Partial<Record<WatcherName, WatcherState>>;

/**
 * Calls a watcher once its credential ends, on whichever instance: a live stream outlives the request that
 * authenticated it, so without this a revoked key or a signed-out session would go on reading (ARCHITECTURE §7:
 * revocation takes effect at once). `channel` is notified after each commit that may end some; the notice names
 * none, and each costs one query (`ended`) over the credentials this instance's streams hold. `notices()` counts
 * the notices received, so a call can tell whether one came while it ran.
 */
function credentialWatcher(name: WatcherName, channel: string, ended: (ids: string[]) => Promise<string[]>) {
  const state = (): WatcherState => {
    const existing = g[name];
    if (existing) return existing;
    const created: WatcherState = { watchers: new Map(), notices: 0 };
    const check = async () => {
      if (created.watchers.size === 0) return;
      for (const gone of await ended([...created.watchers.keys()])) for (const f of created.watchers.get(gone) ?? []) f();
    };
    const onNotice = () => {
      created.notices++;
      void check().catch((err) => console.error(`[brynth] stream: ${channel} check failed`, err));
    };
    void listen(channel, onNotice, onNotice);
    g[name] = created;
    return created;
  };
  return {
    watch(id: string, onEnded: () => void): () => void {
      const { watchers } = state();
      let set = watchers.get(id);
      if (!set) watchers.set(id, (set = new Set()));
      set.add(onEnded);
      return () => {
        set.delete(onEnded);
        if (set.size === 0 && watchers.get(id) === set) watchers.delete(id);
      };
    },
    notices: () => state().notices,
    ended,
  };
}

const keyWatcher = credentialWatcher("__brynthStreamKeys", KEYS_CHANNEL, async (ids) => {
  const rows = await (await getDb())
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(inArray(apiKeys.id, ids), isNotNull(apiKeys.revokedAt)));
  return rows.map((r) => r.id);
});

const grantWatcher = credentialWatcher("__brynthStreamGrants", GRANTS_CHANNEL, async (ids) => {
  const rows = await (await getDb())
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(and(inArray(oauthGrants.id, ids), isNotNull(oauthGrants.revokedAt)));
  return rows.map((r) => r.id);
});

const sessionWatcher = credentialWatcher("__brynthStreamOwnerSessions", OWNER_SESSIONS_CHANNEL, async (ids) => {
  const rows = await (await getDb())
    .select({ id: ownerSessions.id })
    .from(ownerSessions)
    .where(and(inArray(ownerSessions.id, ids), or(isNotNull(ownerSessions.revokedAt), lte(ownerSessions.expiresAt, sql`now()`))));
  return rows.map((r) => r.id);
});

/** Who reads a stream, and the dashboard session it came with (null for a key, or the owner's HTTP Basic). */
export type StreamActor = Actor & { ownerSessionId: string | null };

/**
 * Ends a stream when the credential that opened it ends: its key revoked, or the owner's dashboard session signed
 * out, ended in Settings, or ended by a password change. HTTP Basic has nothing to end. Returns the unwatch.
 */
export function watchCredentialEnd(actor: StreamActor, close: (reason: string) => void): () => void {
  if (actor.keyId) return keyWatcher.watch(actor.keyId, () => close("The key was revoked."));
  if (actor.ownerSessionId) return sessionWatcher.watch(actor.ownerSessionId, () => close("The session ended."));
  return () => {};
}

/**
 * For a key-like actor's call that waits (inbox_wait, ask_approval's wait_seconds...), which outlives the check that
 * let it in as a stream does. The actor's key id is an API key's, or an OAuth grant's (`ogr_…`, principal.ts), each
 * ended by its own revocation. Gives `credential`, which of the two it is; `signal`, aborted as well once it is
 * revoked, so the wait stops then; `revoked()`, asked before the call answers, since the wait may have found
 * something after the revocation's notice came and before its check said so (only then does it ask the database: a
 * call no change came during costs nothing); and the unwatch.
 */
export function untilKeyRevoked(keyId: string, signal: AbortSignal) {
  const [credential, watcher] = keyId.startsWith("ogr_") ? (["OAuth grant", grantWatcher] as const) : (["key", keyWatcher] as const);
  const ended = new AbortController();
  const unwatch = watcher.watch(keyId, () => ended.abort(new Error(`The ${credential} was revoked.`)));
  const since = watcher.notices();
  const revoked = async () => ended.signal.aborted || (watcher.notices() !== since && (await watcher.ended([keyId])).length > 0);
  return { credential, signal: AbortSignal.any([signal, ended.signal]), revoked, unwatch };
}
