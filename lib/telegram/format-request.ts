import { optionPrefix } from "@/lib/approvals/option-label";
import type { InlineKeyboardButton } from "grammy/types";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { buttonData } from "@/lib/telegram/callback-data";
// Telegram's HTML mode needs only &, < and > escaped, and decodes the &quot; and &#39; this also writes.
import { escapeHtml } from "@/lib/text/escape-html";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { sliceWhole } from "@/lib/text/well-formed";

/** At most `n` UTF-16 units, an emoji never cut in half (half of one is not valid text, which the Bot API refuses). */
const cut = (s: string, n: number) => (s.length > n ? `${sliceWhole(s, n - 1)}…` : s);

/**
 * What the agent wrote, invisible characters written out (`[U+202E]`), before any cut: a right-to-left override in
 * a summary or an option would otherwise show the person deciding another text than the one stored.
 */
const shown = (s: string) => revealInvisible(s);

/**
 * What of a request its message shows, so that with the rest it stays within Telegram's 4096 characters: the
 * summary and details of an approval, or a question's text (its summary, up to 4,000 characters, with no details)
 * — the body, which gives way when the message must carry more (the outcome, once decided). The facts are cut too:
 * written out, one invisible character takes eight.
 */
const SUMMARY_MAX = 600;
const DETAILS_MAX = 2800;
const QUESTION_MAX = SUMMARY_MAX + DETAILS_MAX;
const FACT_MAX = 120;
const OPTION_MAX = 64;

/** The request as a Telegram message (HTML), within Telegram's 4096-character limit. */
export function requestText(r: ApprovalRequest, opts: { notice?: boolean; bodyMax?: number } = {}): string {
  const head = r.kind === "question" ? "❔ <b>Question</b>" : r.kind === "policy" ? "📜 <b>Policy change</b>" : "🔔 <b>Approval requested</b>";
  const summaryMax = r.kind === "question" ? (opts.bodyMax ?? QUESTION_MAX) : SUMMARY_MAX;
  const lines = [`${head}${r.risk ? ` · risk ${r.risk}` : ""}`, "", `<b>${escapeHtml(cut(shown(r.summary), summaryMax))}</b>`];
  if (r.details) lines.push("", escapeHtml(cut(shown(r.details), opts.bodyMax ?? DETAILS_MAX)));
  const facts = [
    r.amount !== null ? `Amount: ${r.amount}` : null,
    r.action && r.kind !== "policy" ? `Action: ${escapeHtml(cut(shown(r.action), FACT_MAX))}` : null,
    r.agent ? `Agent: ${escapeHtml(cut(shown(r.agent), FACT_MAX))}` : null,
  ].filter(Boolean);
  if (facts.length) lines.push("", facts.join(" · "));
  if (opts.notice) lines.push("", `✅ Approved at once by ${escapeHtml(r.decidedBy ?? "policy")} (notice only).`);
  else lines.push("", `Expires ${r.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC · <code>${r.id}</code>`);
  return lines.join("\n");
}

const outcomeLabel: Record<string, string> = {
  approved: "✅ Approved",
  denied: "❌ Denied",
  modified: "✳️ Chose",
  answered: "💬 Answered",
  needs_context: "❓ Needs more context",
  expired: "⌛ Expired",
};

/**
 * The request's message after the decision: same text, the outcome and who decided, no buttons. The details give
 * way to the outcome, so the whole stays within Telegram's limit: over it, the Bot API refuses the edit and the
 * message would keep its live buttons.
 */
export function closedText(r: ApprovalRequest): string {
  const outcome = `${outcomeLabel[r.status] ?? r.status}${r.decision ? `: ${cut(shown(r.decision), 300)}` : ""}`;
  const who = r.decidedBy ? ` by ${r.decidedBy}` : "";
  const comment = r.comment ? `\n“${cut(r.comment, 500)}”` : "";
  const bodyMax = Math.max(100, (r.kind === "question" ? QUESTION_MAX : DETAILS_MAX) - (2 + outcome.length + who.length + comment.length));
  return `${requestText(r, { bodyMax })}\n\n<b>${escapeHtml(outcome)}</b>${escapeHtml(who)}${escapeHtml(comment)}`;
}

export function requestKeyboard(r: ApprovalRequest): InlineKeyboardButton[][] {
  const rows: InlineKeyboardButton[][] = [];
  if (r.kind !== "question") {
    rows.push([
      { text: "✅ Approve", callback_data: buttonData("a", r.id) },
      { text: "❌ Deny", callback_data: buttonData("d", r.id) },
    ]);
  }
  r.options.forEach((o, i) => rows.push([{ text: cut(`${optionPrefix(r)}${shown(o)}`, OPTION_MAX), callback_data: buttonData("o", r.id, i) }]));
  rows.push(
    r.kind === "question"
      ? [
          { text: "✍️ Answer", callback_data: buttonData("t", r.id) },
          { text: "❓ Needs context", callback_data: buttonData("x", r.id) },
        ]
      : [
          { text: "💬 Comment", callback_data: buttonData("c", r.id) },
          { text: "❓ Needs context", callback_data: buttonData("x", r.id) },
        ],
  );
  return rows;
}
