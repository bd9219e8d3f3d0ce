/**
 * Who is acting, passed to every domain function. Keys act through MCP or REST; owners through the dashboard or
 * owner REST; the system for jobs. `agent`/`platform` are what the ledger records as the agent identity.
 */
export interface Actor {
  type: "key" | "owner" | "system";
  projectId: string;
  /** Key id or owner id; null for the system. */
  id: string | null;
  keyId: string | null;
  keyName?: string;
  keyPrefix?: string;
  projectName?: string;
  scopes: readonly string[];
  mailboxId?: string | null;
  /** The key's (or grant's) mailbox was deleted since: it may call whoami and nothing else (design §2.6). */
  mailboxDeleted?: boolean;
  agent: string | null;
  platform: string | null;
  via: "mcp" | "rest" | "dashboard" | "system";
  sessionId?: string | null;
  /** The owner's dashboard session the call came with (none for HTTP Basic): its end ends the call's wait. */
  ownerSessionId?: string | null;
}

export const systemActor = (projectId: string): Actor => ({
  type: "system",
  projectId,
  id: null,
  keyId: null,
  scopes: [],
  agent: "brynth",
  platform: null,
  via: "system",
});
