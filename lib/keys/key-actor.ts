import type { Actor } from "@/lib/actor";
import type { ApiKey } from "@/lib/db/schema/keys";
import type { McpSession } from "@/lib/db/schema/keys";
import { resolveIdentity } from "@/lib/keys/agent-identity";

/** The actor for a call made with an API key, over either transport. */
export function keyActor(key: ApiKey & { projectName: string }, headers: Pick<Headers, "get">, via: "mcp" | "rest", session?: McpSession | null): Actor {
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
    agent: who.agent ?? key.name,
    platform: who.platform,
    via,
    sessionId: session?.id ?? null,
  };
}
