/**
 * Every scope a key can hold, from both spec families, grouped and explained for the API keys screen.
 * `any` is not a scope: tools with scope "any" (session_hello, whoami) work with every key.
 */
export const scopeGroups = [
  {
    family: "brynth",
    title: "Back office",
    scopes: [
      { id: "ledger:read", label: "Read the ledger", help: "ledger_query and ledger_verify: who did what, when." },
      { id: "admin", label: "Manage sources", help: "source_add, source_list, source_remove." },
      { id: "inbox:read", label: "Read events", help: "inbox_list and inbox_wait on the event inbox." },
      { id: "inbox:write", label: "Process events", help: "inbox_claim, inbox_ack and inbox_nack." },
      { id: "approvals", label: "Approvals", help: "Ask people (ask_approval, ask_human), channels and policy." },
      { id: "disk", label: "Disk", help: "Key-value, task state and files." },
      { id: "send", label: "Send email", help: "email_send from the project address." },
    ],
  },
  {
    family: "mailboxes",
    title: "Mailboxes",
    scopes: [
      { id: "inbox_read", label: "Read mailboxes", help: "list_inboxes, search_inboxes, get_inbox." },
      { id: "inbox_create", label: "Create mailboxes", help: "create_inbox." },
      { id: "inbox_update", label: "Update mailboxes", help: "update_inbox." },
      { id: "inbox_delete", label: "Delete mailboxes", help: "delete_inbox." },
      { id: "message_read", label: "Read mail", help: "Threads, messages and attachments." },
      { id: "message_update", label: "Label mail", help: "update_thread, update_message." },
      { id: "message_delete", label: "Delete mail", help: "delete_thread." },
      { id: "message_send", label: "Send mail", help: "send_message, forward_message." },
      { id: "message_reply", label: "Reply to mail", help: "reply_to_message." },
      { id: "draft_read", label: "Read drafts", help: "list_drafts, get_draft." },
      { id: "draft_create", label: "Create drafts", help: "create_draft." },
      { id: "draft_update", label: "Edit drafts", help: "update_draft." },
      { id: "draft_send", label: "Send drafts", help: "send_draft and scheduled sends." },
      { id: "draft_delete", label: "Delete drafts", help: "delete_draft." },
      { id: "list_entry_read", label: "Read allow/block lists", help: "list_list_entries, get_list_entry." },
      { id: "list_entry_create", label: "Add list entries", help: "create_list_entry." },
      { id: "list_entry_delete", label: "Remove list entries", help: "delete_list_entry." },
      { id: "webhook_read", label: "Read webhooks", help: "list_webhooks, get_webhook, get_webhook_headers." },
      { id: "webhook_create", label: "Create webhooks", help: "create_webhook." },
      { id: "webhook_update", label: "Update webhooks", help: "update_webhook, update_webhook_headers." },
      { id: "webhook_delete", label: "Delete webhooks", help: "delete_webhook." },
    ],
  },
] as const;

export type Scope = (typeof scopeGroups)[number]["scopes"][number]["id"];
export const allScopes: readonly Scope[] = scopeGroups.flatMap((g) => g.scopes.map((s) => s.id));
export const isScope = (s: string): s is Scope => (allScopes as readonly string[]).includes(s);
