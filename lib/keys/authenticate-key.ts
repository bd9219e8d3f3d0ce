import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { apiKeys, mcpSessions, type McpSession } from "@/lib/db/schema/keys";
import { mailboxes } from "@/lib/db/schema/mail";
import { projects } from "@/lib/db/schema/projects";
import { AppError } from "@/lib/errors";
import { hashKey, looksLikeKey } from "@/lib/keys/key-format";
import { keyCache, sessionCache, type CachedKey } from "@/lib/keys/auth-cache";
import { mailboxGone } from "@/lib/keys/key-restrictions";
import { noteAuthFailure, checkAuthThrottle } from "@/lib/http/auth-throttle";
import { chargedLookup } from "@/lib/http/charged-lookup";

const unauthorized = () =>
  new AppError("unauthorized", "Missing or invalid API key.", {
    fix: "Send `Authorization: Bearer brk_live_…` with an active key from the API keys screen.",
  });

/** last_used_at is written at most once a minute per key, off the request's critical path. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Looks the key up by hash, or finds it in the auth cache (which every instance empties the moment a key is revoked:
 * see auth-cache.ts). Unknown secrets count toward the client address's throttle (429 with Retry-After) so keys
 * cannot be guessed at speed.
 */
export async function authenticateKey(
  authorization: string | null,
  clientIp: string,
  /** An MCP session id: its row comes back in the same query (null if unknown), saving a round trip per call. */
  sessionId?: string | null,
): Promise<CachedKey & { session?: McpSession | null }> {
  checkAuthThrottle(clientIp);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const secret = match?.[1];
  // Only a presented, wrong credential counts toward the throttle: a request without one guesses nothing.
  if (!secret) throw unauthorized();
  if (secret.startsWith("oat_")) {
    // Issued for /mcp and for nothing else (design D12): never a REST credential, however valid.
    throw new AppError("unauthorized", "OAuth access tokens authenticate /mcp only.", {
      fix: "Call /mcp with this token, or use an API key (brk_live_…) for REST.",
    });
  }
  if (!looksLikeKey(secret)) {
    noteAuthFailure(clientIp);
    throw unauthorized();
  }
  const hash = hashKey(secret);
  const db = await getDb();
  const hit = keyCache.get(hash);
  if (hit?.revokedAt) throw unauthorized();
  const session = sessionId ? sessionCache.get(sessionId) : undefined;
  let base = hit;
  let key: (CachedKey & { session?: McpSession | null }) | undefined;
  if (hit && (!sessionId || session)) {
    key = { ...hit, session };
  } else {
    const epochs = [keyCache.epoch(), sessionCache.epoch()];
    const [row] = await chargedLookup(
      clientIp,
      `key:${hash}:${sessionId ?? ""}`,
      () =>
        db
          .select({ key: apiKeys, projectName: projects.name, mailboxDeleted: mailboxGone, session: mcpSessions })
          .from(apiKeys)
          .innerJoin(projects, eq(projects.id, apiKeys.projectId))
          .leftJoin(mailboxes, eq(mailboxes.id, apiKeys.mailboxId))
          .leftJoin(mcpSessions, and(eq(mcpSessions.id, sessionId ?? ""), sql`${sessionId ?? null}::text is not null`))
          .where(eq(apiKeys.hash, hash)),
      (rows) => rows.length > 0,
    );
    base = row && { ...row.key, projectName: row.projectName, mailboxDeleted: row.mailboxDeleted };
    // A revoked key is cached too (revocation is for good), so an agent retrying with one costs no query.
    if (base) keyCache.set(epochs[0], hash, base);
    if (base && !base.revokedAt && row.session) sessionCache.set(epochs[1], row.session.id, row.session);
    key = base && { ...base, session: row.session };
  }
  // An unknown secret was charged to the address by chargedLookup. A revoked key is a real one, not a guess: an
  // agent retrying with it counted against its address, and locked out every healthy key of its host or NAT.
  if (!key || key.revokedAt) throw unauthorized();
  const now = Date.now();
  if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    key.lastUsedAt = new Date(now);
    base!.lastUsedAt = key.lastUsedAt;
    db.update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(apiKeys.id, key.id))
      .catch((err) => console.error("[brynth] last_used_at update failed", err));
  }
  return key;
}
