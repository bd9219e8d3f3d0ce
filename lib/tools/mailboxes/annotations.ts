/**
 * The mailbox spec's annotation rule, exactly: reads are read-only and idempotent, updates idempotent and not
 * destructive, deletes destructive and idempotent, creates and sends neither; every tool of the family has
 * `openWorldHint: true` (mail reaches the outside world). defineTool refuses a mailbox tool without it.
 */
export const mailboxRead = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
export const mailboxUpdate = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
export const mailboxDelete = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true } as const;
export const mailboxCreate = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;
