import type { Actor } from "@/lib/actor";
import type { ApprovalChannel } from "@/lib/db/schema/approvals";

/**
 * The ledger's actor for something a channel's person did away from the dashboard (verify, decide by email or
 * Telegram): the system acting for that channel, named so the entry says who.
 */
export const channelActor = (c: Pick<ApprovalChannel, "projectId" | "id" | "kind" | "label">): Actor => ({
  type: "system",
  projectId: c.projectId,
  id: c.id,
  keyId: null,
  scopes: [],
  agent: `channel:${c.label}`,
  platform: c.kind,
  via: "system",
});
