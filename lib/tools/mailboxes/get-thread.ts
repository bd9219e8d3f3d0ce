import { getThread as readThread } from "@/lib/mail/threads/get-thread";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { MCP_RESULT_BYTES, recordCut } from "@/lib/tools/result-budget";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOfRows } from "@/lib/tools/mailboxes/list-page";
import { optionalInboxIdField, threadIdField, threadWithMessages } from "@/lib/tools/mailboxes/thread-fields";

const NAME = "get_thread";

export const getThread = defineTool({
  name: NAME,
  family: "mailboxes",
  untrusted: true,
  scope: "message_read",
  description:
    "Reads a conversation: its summary and a page of its messages in full (text, html, extracted_text/extracted_html = the reply without quoted history, attachment metadata, SPF/DKIM/DMARC verdicts, labels). The first page holds the newest messages, ordered oldest to newest; `next_page_token` leads to older ones. 10 messages a page by default, `limit` up to 100. Over MCP a result above about 19,000 bytes is shortened (`truncated: true`; the `fix` names the REST path that returns everything). A thread outside the key's inboxes is NOT_FOUND.",
  input: listInput({ threadId: threadIdField, inboxId: optionalInboxIdField }),
  output: budgetedOutput(threadWithMessages),
  annotations: { ...mailboxRead, title: "Get a thread" },
  rest: { method: "GET", path: "/threads/{thread_id}" },
  mcpBudget: {
    // A page of long messages over MCP ends in shortened content or identifiers: read no more than the ladder can show.
    prefix: (input) => Math.min(2048, Math.floor(MCP_RESULT_BYTES / input.limit)),
    fix: (input) =>
      `GET /api/v1/threads/${input.threadId} returns every message in full (REST results are never shortened); get_message reads one message, and a smaller limit fits more of each.`,
  },
  example: { threadId: "{{thread}}" },
  handler: async (ctx, input) => {
    const { thread, messages } = await readThread(ctx.db, {
      actor: ctx.actor,
      threadId: input.threadId,
      inboxId: input.inboxId,
      limit: input.limit + 1,
      page: pageAfter(NAME, ctx.actor, input),
      prefix: ctx.content?.prefix,
    });
    ctx.subject = thread.threadId;
    const { items, head } = pageOfRows(NAME, ctx.actor, input, messages);
    for (const item of items) recordCut(ctx.content, item.content);
    // Fetched newest first so a page is the newest messages not yet seen; shown oldest → newest, as a conversation reads.
    const shown = items.map((r) => r.view).reverse();
    return { ...thread, ...head, messages: shown };
  },
});
