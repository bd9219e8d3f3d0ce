import type { Actor } from "@/lib/actor";
import type { ApiKey, McpSession } from "@/lib/db/schema/keys";
import { resolveIdentity } from "@/lib/keys/agent-identity";

/** What of a key (or of an OAuth grant, which acts as one on /mcp) the actor is made from. */
export type KeyLike = Pick<ApiKey, "id" | "projectId" | "name" | "prefix" | "mailboxId"> & {
  scopes: readonly string[];
  projectName: string;
  /** Absent: the restriction's mailbox (if any) is live. */
  mailboxDeleted?: boolean;
};

/** The actor for a call made with an API key, over either transport. */
export function keyActor(key: KeyLike, headers: Pick<Headers, "get">, via: "mcp" | "rest", session?: McpSession | null): Actor {
  const who = resolveIdentity(headers, session);
  return {
    type: "key",
    projectId: key.projectId,
    projectName: key.projectName,
    id: key.id,
    keyId: key.id,
    keyName: key.name,
    keyPrefix: key.prefix,
    scopes: key.scopes,
    mailboxId: key.mailboxId,
    mailboxDeleted: key.mailboxDeleted,
    agent: who.agent ?? key.name,
    platform: who.platform,
    via,
    sessionId: session?.id ?? null,
  };
}
