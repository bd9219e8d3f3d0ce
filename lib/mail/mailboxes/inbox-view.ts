import type { Mailbox } from "@/lib/db/schema/mail";

/** A mailbox as the mailbox tools show it (AgentMail's Inbox plus our status, policy and metadata); camelCase, the tools render it in snake_case. */
export function inboxView(m: Mailbox) {
  return {
    inboxId: m.id,
    email: m.address,
    displayName: m.displayName,
    status: m.status,
    sendPolicy: m.sendPolicy,
    isDefault: m.isDefault,
    clientId: m.clientId,
    metadata: m.metadata,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
export type InboxView = ReturnType<typeof inboxView>;
