import { and, inArray, isNotNull } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { listen } from "@/lib/db/notify";

/** The channel revokeKey (and every key change) notifies after commit (auth-cache.ts's keyCache). */
const KEYS_CHANNEL = "brynth_auth_keys";

const g = globalThis as { __brynthStreamKeys?: { watchers: Map<string, Set<() => void>>; ready: Promise<unknown> } };

/**
 * Calls `onRevoked` once the key is revoked, on whichever instance: a live stream outlives the request that
 * authenticated it, so without this a revoked key would go on reading mail (ARCHITECTURE §7: revocation takes
 * effect at once). The notice names no key; each one costs one query for the keys this instance's sockets hold.
 */
export function watchKeyRevocation(keyId: string, onRevoked: () => void): () => void {
  if (!g.__brynthStreamKeys) {
    const watchers = new Map<string, Set<() => void>>();
    const check = async () => {
      if (watchers.size === 0) return;
      const db = await getDb();
      const revoked = await db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(inArray(apiKeys.id, [...watchers.keys()]), isNotNull(apiKeys.revokedAt)));
      for (const { id } of revoked) for (const f of watchers.get(id) ?? []) f();
    };
    const onNotice = () => void check().catch((err) => console.error("[brynth] stream: key revocation check failed", err));
    g.__brynthStreamKeys = { watchers, ready: listen(KEYS_CHANNEL, onNotice, onNotice) };
  }
  const { watchers } = g.__brynthStreamKeys;
  let set = watchers.get(keyId);
  if (!set) watchers.set(keyId, (set = new Set()));
  set.add(onRevoked);
  return () => {
    set.delete(onRevoked);
    if (set.size === 0 && watchers.get(keyId) === set) watchers.delete(keyId);
  };
}
