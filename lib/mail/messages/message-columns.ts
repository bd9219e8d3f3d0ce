import { messageColumns } from "@/lib/db/schema/mail";

/**
 * The columns a list item or search hit shows: every message column but the bodies and the raw headers. Lists
 * never show bodies, and a 30 KB message's text and html are TOASTed: reading them for ten rows a page would
 * cost the statement most of its time for nothing.
 */
const { text, html, extractedText, extractedHtml, headers, ...itemColumns } = messageColumns;
export const messageItemColumns = itemColumns;
/** What get_message and get_thread read beside the item columns. */
export const messageBodyColumns = { text, html, extractedText, extractedHtml, headers };
