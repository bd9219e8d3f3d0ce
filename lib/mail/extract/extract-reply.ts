import { extractHtml } from "@/lib/mail/extract/extract-html";
import { extractText } from "@/lib/mail/extract/extract-text";
import { makePreview } from "@/lib/mail/extract/make-preview";

export interface ExtractedReply {
  extractedText: string | null;
  extractedHtml: string | null;
  preview: string | null;
}

/**
 * What a list or an agent reads first (design §2.12): the reply without its quoted history, as text and as HTML,
 * and a 200-character preview. CPU only; done at ingest outside the commit, like authentication. Bounces and
 * auto-submitted mail are kept whole (`keepWhole`).
 */
export function extractReply(body: { text: string | null; html: string | null }, opts: { keepWhole: boolean }): ExtractedReply {
  const extractedText = extractText(body.text, opts);
  return { extractedText, extractedHtml: extractHtml(body.html, opts), preview: makePreview(extractedText) };
}
