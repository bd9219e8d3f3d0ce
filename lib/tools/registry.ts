import type { AnyTool } from "@/lib/tools/run-tool";
import { toolOp } from "@/lib/tools/define-tool";
import { sessionHello } from "@/lib/tools/core/session-hello";
import { whoami } from "@/lib/tools/core/whoami";
import { ledgerQuery } from "@/lib/tools/ledger/ledger-query";
import { ledgerVerify } from "@/lib/tools/ledger/ledger-verify";
import { sourceAdd } from "@/lib/tools/events/source-add";
import { sourceList } from "@/lib/tools/events/source-list";
import { sourceRemove } from "@/lib/tools/events/source-remove";
import { inboxList } from "@/lib/tools/events/inbox-list";
import { inboxClaim } from "@/lib/tools/events/inbox-claim";
import { inboxAck } from "@/lib/tools/events/inbox-ack";
import { inboxNack } from "@/lib/tools/events/inbox-nack";
import { inboxWait } from "@/lib/tools/events/inbox-wait";
import { askApproval } from "@/lib/tools/approvals/ask-approval";
import { askHuman } from "@/lib/tools/approvals/ask-human";
import { requestStatus } from "@/lib/tools/approvals/request-status";
import { channelAdd } from "@/lib/tools/approvals/channel-add";
import { channelList } from "@/lib/tools/approvals/channel-list";
import { channelRemove } from "@/lib/tools/approvals/channel-remove";
import { policyGet } from "@/lib/tools/approvals/policy-get";
import { policySet } from "@/lib/tools/approvals/policy-set";
import { kvSet } from "@/lib/tools/disk/kv-set";
import { kvGet } from "@/lib/tools/disk/kv-get";
import { kvList } from "@/lib/tools/disk/kv-list";
import { kvDelete } from "@/lib/tools/disk/kv-delete";
import { stateSave } from "@/lib/tools/disk/state-save";
import { stateLoad } from "@/lib/tools/disk/state-load";
import { filePut } from "@/lib/tools/disk/file-put";
import { fileGet } from "@/lib/tools/disk/file-get";
import { fileList } from "@/lib/tools/disk/file-list";
import { fileDelete } from "@/lib/tools/disk/file-delete";
import { fileUrl } from "@/lib/tools/disk/file-url";
import { emailSend } from "@/lib/tools/mail/email-send";
import { listInboxes } from "@/lib/tools/mailboxes/list-inboxes";
import { getInbox } from "@/lib/tools/mailboxes/get-inbox";
import { searchInboxes } from "@/lib/tools/mailboxes/search-inboxes";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { updateInbox } from "@/lib/tools/mailboxes/update-inbox";
import { deleteInbox } from "@/lib/tools/mailboxes/delete-inbox";
import { listThreads } from "@/lib/tools/mailboxes/list-threads";
import { searchThreads } from "@/lib/tools/mailboxes/search-threads";
import { getThread } from "@/lib/tools/mailboxes/get-thread";
import { listMessages } from "@/lib/tools/mailboxes/list-messages";
import { searchMessages } from "@/lib/tools/mailboxes/search-messages";
import { getMessage } from "@/lib/tools/mailboxes/get-message";
import { getAttachment } from "@/lib/tools/mailboxes/get-attachment";
import { updateThread } from "@/lib/tools/mailboxes/update-thread";
import { deleteThread } from "@/lib/tools/mailboxes/delete-thread";
import { updateMessage } from "@/lib/tools/mailboxes/update-message";
import { deleteMessage } from "@/lib/tools/mailboxes/delete-message";
import { batchMessages } from "@/lib/tools/mailboxes/batch-messages";
import { batchThreads } from "@/lib/tools/mailboxes/batch-threads";
import { getRawMessage } from "@/lib/tools/mailboxes/get-raw-message";
import { getMessageAttachment } from "@/lib/tools/mailboxes/get-message-attachment";
import { listListEntriesTool } from "@/lib/tools/mailboxes/list-list-entries";
import { getListEntry } from "@/lib/tools/mailboxes/get-list-entry";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { deleteListEntryTool } from "@/lib/tools/mailboxes/delete-list-entry";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { replyToMessage } from "@/lib/tools/mailboxes/reply-to-message";
import { forwardMessage } from "@/lib/tools/mailboxes/forward-message";
import { listDrafts } from "@/lib/tools/mailboxes/list-drafts";
import { getDraft } from "@/lib/tools/mailboxes/get-draft";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { updateDraft } from "@/lib/tools/mailboxes/update-draft";
import { sendDraft } from "@/lib/tools/mailboxes/send-draft";
import { deleteDraft } from "@/lib/tools/mailboxes/delete-draft";
import { listAllDrafts } from "@/lib/tools/mailboxes/list-all-drafts";
import { getAnyDraft } from "@/lib/tools/mailboxes/get-any-draft";
import { getDraftAttachment } from "@/lib/tools/mailboxes/get-draft-attachment";
import { listWebhooksTool } from "@/lib/tools/mailboxes/list-webhooks";
import { getWebhookTool } from "@/lib/tools/mailboxes/get-webhook";
import { createWebhookTool } from "@/lib/tools/mailboxes/create-webhook";
import { updateWebhookTool } from "@/lib/tools/mailboxes/update-webhook";
import { deleteWebhookTool } from "@/lib/tools/mailboxes/delete-webhook";
import { getWebhookHeadersTool } from "@/lib/tools/mailboxes/get-webhook-headers";
import { updateWebhookHeadersTool } from "@/lib/tools/mailboxes/update-webhook-headers";

/** THE registry: an explicit flat list. MCP, REST, OpenAPI and the contract tests all derive from it. */
export const tools: readonly AnyTool[] = [
  sessionHello,
  whoami,
  ledgerQuery,
  ledgerVerify,
  sourceAdd,
  sourceList,
  sourceRemove,
  inboxList,
  inboxClaim,
  inboxAck,
  inboxNack,
  inboxWait,
  askApproval,
  askHuman,
  requestStatus,
  channelAdd,
  channelList,
  channelRemove,
  policyGet,
  policySet,
  kvSet,
  kvGet,
  kvList,
  kvDelete,
  stateSave,
  stateLoad,
  filePut,
  fileGet,
  fileList,
  fileDelete,
  fileUrl,
  emailSend,
  // The mailbox family (mailboxes-mcp-tools.md), in the spec's order.
  listInboxes,
  getInbox,
  searchInboxes,
  createInbox,
  updateInbox,
  deleteInbox,
  listThreads,
  searchThreads,
  getThread,
  getAttachment,
  updateThread,
  deleteThread,
  listMessages,
  searchMessages,
  getMessage,
  updateMessage,
  sendMessage,
  replyToMessage,
  forwardMessage,
  listDrafts,
  getDraft,
  createDraft,
  updateDraft,
  sendDraft,
  deleteDraft,
  listListEntriesTool,
  getListEntry,
  createListEntryTool,
  deleteListEntryTool,
  listWebhooksTool,
  getWebhookTool,
  createWebhookTool,
  updateWebhookTool,
  deleteWebhookTool,
  getWebhookHeadersTool,
  updateWebhookHeadersTool,
  // REST-only (spec "Not available over MCP"): absent from tools/list, refused over MCP as unknown tools.
  deleteMessage,
  batchMessages,
  batchThreads,
  getRawMessage,
  getMessageAttachment,
  listAllDrafts,
  getAnyDraft,
  getDraftAttachment,
];

const byName = new Map(tools.map((t) => [t.name, t]));
export const findTool = (name: string) => byName.get(name);

/** A tool's ledger op, for a dashboard change that mirrors the tool (an unknown name fails at load, in every test). */
export function toolOpOf(name: string): string {
  const tool = findTool(name);
  if (!tool) throw new Error(`No tool named ${name}.`);
  return toolOp(tool);
}
