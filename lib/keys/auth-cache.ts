import type { ApiKey, McpSession } from "@/lib/db/schema/keys";
import { notifiedCache } from "@/lib/db/notified-cache";

/**
 * API keys (by hash) and MCP sessions as authenticated moments ago, so a busy agent does not cost a query per call.
 * Revoking a key, deleting the mailbox a key is restricted to, or ending or relabelling a session, invalidates them
 * on every instance (see notified-cache.ts).
 */
export type CachedKey = ApiKey & { projectName: string; mailboxDeleted: boolean };

export const keyCache = notifiedCache<CachedKey>("brynth_auth_keys", { maxAgeMs: 10_000 });
export const sessionCache = notifiedCache<McpSession>("brynth_auth_sessions", { maxAgeMs: 10_000 });
