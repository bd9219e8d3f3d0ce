import type { Actor } from "@/lib/actor";
import type { McpSession } from "@/lib/db/schema/keys";
import { resolveIdentity } from "@/lib/keys/agent-identity";
import { keyActor } from "@/lib/keys/key-actor";

/**
 * Who is calling `/mcp`, whichever credential proved it (ARCHITECTURE §4, design T4): an API key, an OAuth grant
 * (its access token), or the owner. A grant acts exactly as a key would, with the grant's scopes and mailbox
 * restriction; the owner reaches every tool of the chosen project (no owner-only action is a tool).
 */
export interface McpPrincipal {
  kind: "key" | "grant" | "owner";
  /** The key, grant or owner id: what the session row and rate limits are keyed by. */
  id: string;
  projectId: string;
  projectName: string;
  /** The key's name, the OAuth client's name, or the owner's email. */
  name: string;
  /** The key's display prefix; `oat_` for a grant; empty for the owner. */
  prefix: string;
  scopes: readonly string[];
  mailboxId: string | null;
  /** The restriction's mailbox was deleted since (whoami only). */
  mailboxDeleted?: boolean;
  /** The owner's dashboard session, when the owner came with its cookie. */
  ownerSessionId?: string | null;
  /** The MCP session row when it came with the credential's lookup (undefined: not looked up; null: none). */
  session?: McpSession | null;
}

/** The actor of a call over `/mcp`. A grant is a key-like actor whose key id is the grant's (`ogr_…`). */
export function principalActor(p: McpPrincipal, headers: Pick<Headers, "get">, session?: McpSession | null): Actor {
  if (p.kind !== "owner") return keyActor(p, headers, "mcp", session);
  const who = resolveIdentity(headers, session);
  return {
    type: "owner",
    projectId: p.projectId,
    projectName: p.projectName,
    id: p.id,
    keyId: null,
    scopes: p.scopes,
    mailboxId: null,
    agent: who.agent ?? p.name,
    platform: who.platform,
    via: "mcp",
    sessionId: session?.id ?? null,
    ownerSessionId: p.ownerSessionId ?? null,
  };
}

/** The session column that names this principal. */
export const sessionPrincipal = (p: McpPrincipal) => ({
  keyId: p.kind === "key" ? p.id : null,
  grantId: p.kind === "grant" ? p.id : null,
  ownerId: p.kind === "owner" ? p.id : null,
});
