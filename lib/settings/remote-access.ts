import { type Executor, getDb } from "@/lib/db/client";
import { listen } from "@/lib/db/notify";
import { remoteAccess as remoteAccessTable } from "@/lib/db/schema/remote-access";
import { env } from "@/lib/env";

type Config = ReturnType<typeof env>;

/** The NOTIFY a saved change sends after its commit (save-remote-access.ts): every instance reads the row again. */
export const REMOTE_ACCESS_CHANNEL = "brynth_remote_access";
/** Read again after this long even without a notification, which bounds what a lost one can cost (as the key cache). */
const MAX_AGE_MS = 10_000;

/** What the owner saved in Settings → Remote access; null and an empty list mean the environment's values. */
export interface SavedRemoteAccess {
  publicUrl: string | null;
  allowedOrigins: string[];
  updatedAt: Date | null;
}

/** How this instance is reached, as every consumer must see it: the setting over PUBLIC_URL and ALLOWED_ORIGINS. */
export interface RemoteAccess {
  /** The public base URL, no trailing slash: OAuth issuer, `${publicUrl}/mcp` as the resource, capability links. */
  publicUrl: string;
  publicOrigin: string;
  /** Browser origins trusted besides publicOrigin: PUBLIC_URL's, ALLOWED_ORIGINS and the saved list. */
  extraOrigins: ReadonlySet<string>;
  /** PUBLIC_URL (or its default). Its host stays served, so a wrong saved URL cannot lock out the address in use. */
  envPublicUrl: string;
  saved: SavedRemoteAccess;
}

interface State {
  /** undefined until a first read succeeds. */
  saved?: SavedRemoteAccess;
  /** When `saved` was read, or the last read failed (which waits as long before trying again). */
  at: number;
  /** Reads and local commits are numbered as they start; an older result than the one held is dropped. */
  seq: number;
  heldSeq: number;
  /** A read was asked for that has not started yet. */
  pending: boolean;
  loading?: Promise<void>;
  listening?: Promise<unknown>;
  view?: { env: Config; saved: SavedRemoteAccess | undefined; value: RemoteAccess };
}

// On globalThis: Next's bundle and server.ts are two module graphs in one process, and must share one value.
const g = globalThis as { __brynthRemoteAccess?: State };
const state = (): State => (g.__brynthRemoteAccess ??= { at: 0, seq: 0, heldSeq: 0, pending: false });

const NONE: SavedRemoteAccess = { publicUrl: null, allowedOrigins: [], updatedAt: null };
const stale = (s: State) => Date.now() - s.at > MAX_AGE_MS;

/**
 * The one reader of Settings → Remote access. Synchronous, because the Host, Origin and CORS checks run on every
 * request before anything is awaited: it answers from memory. A save updates this instance at its commit and
 * NOTIFYs the others, which read the row again (as a key revocation empties their key caches); a value older than
 * 10 s is read again in the background. Until a first read has finished it answers the environment's values, so
 * async callers that must not see those use loadRemoteAccess (and server start loads it first).
 */
export function remoteAccess(): RemoteAccess {
  const s = state();
  if (!s.loading && stale(s)) void refreshRemoteAccess();
  return view(s);
}

/**
 * The base of every link this instance hands out (mails, hooks, downloads, whoami, the setup commands it shows):
 * Settings → Remote access's public URL, else PUBLIC_URL.
 */
export const publicUrl = (): string => remoteAccess().publicUrl;

/** As remoteAccess, once the row has been read (or tried) and is not older than 10 s. */
export async function loadRemoteAccess(): Promise<RemoteAccess> {
  const s = state();
  if (s.saved === undefined || stale(s)) await refreshRemoteAccess();
  return view(s);
}

/** Whether a browser Origin is one of ours: the public URL's, PUBLIC_URL's, ALLOWED_ORIGINS or the saved list. */
export function isTrustedOrigin(origin: string, access = remoteAccess()): boolean {
  return origin === access.publicOrigin || access.extraOrigins.has(origin);
}

/**
 * Reads the row again. A read already under way may have started before a change committed, so another one is
 * queued behind it; the promise resolves once a read that started after this call is applied. A failed read is
 * logged and the last value stays.
 */
export function refreshRemoteAccess(): Promise<void> {
  const s = state();
  s.listening ??= listen(
    REMOTE_ACCESS_CHANNEL,
    () => void refreshRemoteAccess(),
    () => void refreshRemoteAccess(),
  ).catch((err) => {
    s.listening = undefined;
    console.error("[brynth] remote access: LISTEN failed; other instances' changes arrive within 10 s", err);
  });
  s.pending = true;
  s.loading ??= (async () => {
    try {
      while (s.pending) {
        s.pending = false;
        const seq = ++s.seq;
        holdRemoteAccess(seq, await readSavedRemoteAccess(await getDb()));
      }
    } catch (err) {
      s.at = Date.now();
      console.error("[brynth] remote access: reading the setting failed; the last value stays", err);
    } finally {
      s.loading = undefined;
    }
  })();
  return s.loading;
}

/**
 * The saved row itself, through `db`. A caller inside a transaction reads with it (on PGlite, one connection, a read
 * outside would wait for that transaction's end).
 */
export async function readSavedRemoteAccess(db: Executor): Promise<SavedRemoteAccess> {
  const [row] = await db.select().from(remoteAccessTable).limit(1);
  return row ? { publicUrl: row.publicUrl, allowedOrigins: row.allowedOrigins, updatedAt: row.updatedAt } : NONE;
}

/** This instance's own save, at its commit: newer than any read still under way, which is then dropped. */
export function committedRemoteAccess(saved: SavedRemoteAccess): void {
  holdRemoteAccess(++state().seq, saved);
}

function holdRemoteAccess(seq: number, saved: SavedRemoteAccess) {
  const s = state();
  if (seq < s.heldSeq) return;
  s.heldSeq = seq;
  s.saved = saved;
  s.at = Date.now();
}

/** Built once per (environment, saved value): the checks read it on every request. */
function view(s: State): RemoteAccess {
  const e = env();
  if (s.view && s.view.env === e && s.view.saved === s.saved) return s.view.value;
  const value = resolveRemoteAccess(s.saved ?? NONE, e);
  s.view = { env: e, saved: s.saved, value };
  return value;
}

/** The saved value over the environment's: the merge rule, in one place. */
export function resolveRemoteAccess(saved: SavedRemoteAccess, e: Config = env()): RemoteAccess {
  const publicUrl = saved.publicUrl ?? e.publicUrl;
  return {
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    extraOrigins: new Set([new URL(e.publicUrl).origin, ...e.ALLOWED_ORIGINS, ...saved.allowedOrigins]),
    envPublicUrl: e.publicUrl,
    saved,
  };
}
