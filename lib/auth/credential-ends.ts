import { type Column, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { mailboxes } from "@/lib/db/schema/mail";
import { oauthGrants } from "@/lib/db/schema/oauth";
import { ownerSessions } from "@/lib/db/schema/owners";
import { listen } from "@/lib/db/notify";
import { mailboxGone } from "@/lib/keys/key-restrictions";
import { OWNER_SESSIONS_CHANNEL } from "@/lib/owners/owner-session-ends";
import { isGrantId } from "@/lib/oauth/token-format";

/** The channel revokeKey (and every key change) notifies after commit (auth-cache.ts's keyCache). */
const KEYS_CHANNEL = "brynth_auth_keys";
/** The channel revokeGrant (and every token change) notifies after commit (token-cache.ts's grantTokenCache). */
const GRANTS_CHANNEL = "brynth_auth_grants";

/**
 * Why a credential ended: revoked (or, for a session, signed out or expired), gone with its project, or left with
 * whoami only, its mailbox restriction's mailbox deleted (design §2.6).
 */
export type CredentialEnd = "revoked" | "gone" | "mailbox";

type Watchers = Map<string, Set<(why: CredentialEnd) => void>>;
type WatcherState = { watchers: Watchers; notices: number };
type WatcherName = "__brynthStreamKeys" | "__brynthStreamGrants" | "__brynthStreamOwnerSessions";
const g = globalThis as unknown as Partial<Record<WatcherName, WatcherState>>;

/**
 * Calls a watcher once its credential ends, on whichever instance: a live stream outlives the request that
 * authenticated it, so without this a revoked key or a signed-out session would go on reading (ARCHITECTURE §7:
 * revocation takes effect at once). `channel` is notified after each commit that may end some; the notice names
 * none, and each costs one query (`rows`) over the credentials this instance's streams hold. A credential whose row
 * is missing ended as surely as a revoked one, `missing` says how: a key or grant went with its project's cascade,
 * a session was purged. `notices()` counts the notices received, so a call can tell whether one came while it ran.
 */
function credentialWatcher(
  name: WatcherName,
  channel: string,
  missing: CredentialEnd,
  rows: (ids: string[]) => Promise<Array<{ id: string; end: CredentialEnd | null }>>,
) {
  const ended = async (ids: string[]): Promise<Map<string, CredentialEnd>> => {
    const found = new Map((await rows(ids)).map((r) => [r.id, r.end]));
    const out = new Map<string, CredentialEnd>();
    for (const id of ids) {
      const end = found.has(id) ? found.get(id) : missing;
      if (end) out.set(id, end);
    }
    return out;
  };
  const state = (): WatcherState => {
    const existing = g[name];
    if (existing) return existing;
    const created: WatcherState = { watchers: new Map(), notices: 0 };
    const check = async () => {
      if (created.watchers.size === 0) return;
      for (const [id, why] of await ended([...created.watchers.keys()])) for (const f of created.watchers.get(id) ?? []) f(why);
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
    watch(id: string, onEnded: (why: CredentialEnd) => void): () => void {
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

/** A key's or grant's end: revoked, else its restriction's mailbox deleted (deleteMailbox notifies both channels). */
const keyLikeEnd = (revokedAt: SQL | Column) =>
  sql<CredentialEnd | null>`case when ${revokedAt} is not null then 'revoked' when ${mailboxGone} then 'mailbox' end`;

const keyWatcher = credentialWatcher("__brynthStreamKeys", KEYS_CHANNEL, "gone", (ids) =>
  getDb().then((db) =>
    db
      .select({ id: apiKeys.id, end: keyLikeEnd(apiKeys.revokedAt) })
      .from(apiKeys)
      .leftJoin(mailboxes, eq(mailboxes.id, apiKeys.mailboxId))
      .where(inArray(apiKeys.id, ids)),
  ),
);

const grantWatcher = credentialWatcher("__brynthStreamGrants", GRANTS_CHANNEL, "gone", (ids) =>
  getDb().then((db) =>
    db
      .select({ id: oauthGrants.id, end: keyLikeEnd(oauthGrants.revokedAt) })
      .from(oauthGrants)
      .leftJoin(mailboxes, eq(mailboxes.id, oauthGrants.mailboxId))
      .where(inArray(oauthGrants.id, ids)),
  ),
);

const sessionWatcher = credentialWatcher("__brynthStreamOwnerSessions", OWNER_SESSIONS_CHANNEL, "revoked", (ids) =>
  getDb().then((db) =>
    db
      .select({
        id: ownerSessions.id,
        end: sql<CredentialEnd | null>`case when ${ownerSessions.revokedAt} is not null or ${ownerSessions.expiresAt} <= now() then 'revoked' end`,
      })
      .from(ownerSessions)
      .where(inArray(ownerSessions.id, ids)),
  ),
);

const STREAM_ENDS: Record<CredentialEnd, string> = {
  revoked: "The key was revoked.",
  gone: "The key's project was deleted.",
  mailbox: "The key's mailbox was deleted.",
};

/** Who reads a stream, and the dashboard session it came with (null for a key, or the owner's HTTP Basic). */
export type StreamActor = Actor & { ownerSessionId: string | null };

/**
 * Ends a stream when the credential that opened it ends: its key revoked, or the owner's dashboard session signed
 * out, ended in Settings, or ended by a password change. HTTP Basic has nothing to end. Returns the unwatch.
 */
export function watchCredentialEnd(actor: StreamActor, close: (reason: string) => void): () => void {
  if (actor.keyId) return keyWatcher.watch(actor.keyId, (why) => close(STREAM_ENDS[why]));
  if (actor.ownerSessionId) return sessionWatcher.watch(actor.ownerSessionId, () => close("The session ended."));
  return () => {};
}

/** The credential a call came with, as its refusal names it. */
export type Credential = "key" | "OAuth grant" | "session";

/**
 * For a call that waits (inbox_wait, ask_approval's wait_seconds...), which outlives the check that let it in as a
 * stream does: what watches its credential, or null when it has none that can end (the owner's HTTP Basic, the
 * system). A key-like actor's key id is an API key's or an OAuth grant's (`ogr_…`, principal.ts); an owner's is the
 * dashboard session it came with. Gives `credential`, which it is; `signal`, aborted as well once it ends, so the
 * wait stops then; `ended()`, asked before the call answers, since the wait may have found something after the
 * notice came and before its check said so (only then does it ask the database: a call no change came during costs
 * nothing), null while the credential stands; and the unwatch.
 */
export function untilCredentialEnds(actor: Pick<Actor, "keyId" | "ownerSessionId">, signal: AbortSignal) {
  const id = actor.keyId ?? actor.ownerSessionId;
  if (!id) return null;
  const [credential, watcher]: [Credential, typeof keyWatcher] = !actor.keyId
    ? ["session", sessionWatcher]
    : isGrantId(id)
      ? ["OAuth grant", grantWatcher]
      : ["key", keyWatcher];
  const stop = new AbortController();
  let why: CredentialEnd | null = null;
  const unwatch = watcher.watch(id, (w) => {
    why = w;
    stop.abort(new Error(`The ${credential} ended (${w}).`));
  });
  const since = watcher.notices();
  const ended = async (): Promise<CredentialEnd | null> => why ?? (watcher.notices() === since ? null : ((await watcher.ended([id])).get(id) ?? null));
  return { credential, signal: AbortSignal.any([signal, stop.signal]), ended, unwatch };
}
