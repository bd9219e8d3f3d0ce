import { remoteAccess } from "@/lib/settings/remote-access";

/** Lifetimes of design D12: codes are exchanged at once, access tokens are short, refresh tokens rotate. */
export const CODE_TTL_MS = 10 * 60_000;
export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

/**
 * The authorization server is this instance itself: its issuer is the public URL of Settings → Remote access, else
 * PUBLIC_URL (RFC 8414 §2: no query, no fragment; the setting is an origin).
 */
export const oauthIssuer = () => remoteAccess().publicUrl;

/** The one protected resource (RFC 8707): tokens are issued for `/mcp` and for nothing else. */
export const mcpResource = () => `${remoteAccess().publicUrl}/mcp`;

/** Where `/mcp`'s protected-resource metadata lives (RFC 9728 §3.1: the resource's path after the well-known name). */
export const resourceMetadataUrl = () => `${remoteAccess().publicUrl}/.well-known/oauth-protected-resource/mcp`;
