import { messageColumns } from "@/lib/db/schema/mail";

/**
 * The columns a list item or search hit shows: every message column but the bodies and the raw headers. Lists
 * never show bodies, and a 30 KB message's text and html are TOASTed: reading them for ten rows a page would
 * cost the statement most of its time for nothing.
 */
const { text: _text, html: _html, extractedText: _extractedText, extractedHtml: _extractedHtml, headers: _headers, ...itemColumns } = messageColumns;
export const messageItemColumns = itemColumns;
