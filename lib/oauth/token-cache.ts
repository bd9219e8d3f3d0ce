import type { OauthGrant } from "@/lib/db/schema/oauth";
import { notifiedCache } from "@/lib/db/notified-cache";

/**
 * An access token as authenticated moments ago: its grant, the grant's project name, the token's own expiry and the
 * scopes it carries (the grant's, or fewer when a refresh narrowed them).
 */
export type CachedGrantToken = OauthGrant & {
  projectName: string;
  clientName: string | null;
  tokenExpiresAt: Date;
  tokenScopes: string[];
  mailboxDeleted: boolean;
};

/**
 * Access tokens by hash, as the key cache keeps keys (auth-cache.ts): revoking a grant or a token empties it on every
 * instance after commit, and entries expire on their own after 10 s in case a notification was lost.
 */
export const grantTokenCache = notifiedCache<CachedGrantToken>("brynth_auth_grants", { maxAgeMs: 10_000 });
