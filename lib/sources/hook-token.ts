import { sha256Hex } from "@/lib/crypto/hash";
import { signToken } from "@/lib/crypto/secret-box";
import { publicUrl } from "@/lib/settings/remote-access";

/** 43 base64url characters (256 bits): unguessable, and derivable again from the id, so it is never stored. */
export const hookToken = (sourceId: string) => signToken("hook-url", sourceId);
export const hookTokenHash = (token: string) => sha256Hex(`hook:${token}`);
export const HOOK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const hookUrl = (sourceId: string) => `${publicUrl()}/hooks/${hookToken(sourceId)}`;
