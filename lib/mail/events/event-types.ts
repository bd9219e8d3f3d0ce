/**
 * The mail event catalogue (mailboxes spec "Webhooks", design §1.8 E1): every type `emitMailEvent` writes, and
 * every type a webhook or a stream subscription may ask for. One list, so a webhook cannot subscribe to a type
 * nothing emits and no emitter can invent a type no subscriber can name.
 */
export const MAIL_EVENT_TYPES = [
  "message.received",
  "message.received.spam",
  "message.received.blocked",
  "message.received.unauthenticated",
  "message.sent",
  "message.delivered",
  "message.bounced",
  "message.complained",
  "message.rejected",
  "draft.pending_approval",
  "draft.rejected",
  "domain.verified",
] as const;

export type MailEventType = (typeof MAIL_EVENT_TYPES)[number];

const known = new Set<string>(MAIL_EVENT_TYPES);
export const isMailEventType = (type: string): type is MailEventType => known.has(type);
