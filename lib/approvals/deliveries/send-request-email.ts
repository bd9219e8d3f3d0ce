import type { Executor } from "@/lib/db/client";
import type { ApprovalChannel, ApprovalRequest } from "@/lib/db/schema/approvals";
import { queueSystemMail } from "@/lib/approvals/deliveries/system-mail";
import { emailButton, emailLayout } from "@/lib/approvals/deliveries/email-layout";
import { escapeHtml } from "@/lib/text/escape-html";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { sliceWhole } from "@/lib/text/well-formed";
import { publicUrl } from "@/lib/settings/remote-access";

const kindLabel = { approval: "Approval requested", question: "Question", policy: "Policy change", tool: "Approval requested" } as const;

/**
 * One email per channel and request. The button opens a Brynth page that shows the request and decides only on a
 * POST from that page, so a mail scanner that follows links decides nothing. Notices carry no link.
 */
export async function sendRequestEmail(tx: Executor, opts: { request: ApprovalRequest; channel: ApprovalChannel; token: string | null }) {
  const r = agentTextShown(opts.request);
  const url = opts.token ? `${publicUrl()}/decide/${opts.token}` : null;
  // A notice carries no link, so its footer speaks of none.
  const footer = url ? `Request ${r.id}. The link works once, only for this address, until the request expires.` : `Request ${r.id}.`;
  const facts = [
    r.risk ? `Risk: ${r.risk}` : null,
    r.amount !== null ? `Amount: ${r.amount}` : null,
    r.action && r.kind !== "policy" ? `Action: ${r.action}` : null,
    r.agent ? `Asked by: ${r.agent}` : null,
    url ? `Expires: ${r.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC` : `Approved at once by ${r.decidedBy}`,
  ].filter((f): f is string => f !== null);
  // Brynth's own line first, the agent's words after it and said to be theirs: details that began "Open to decide:"
  // with a link elsewhere came before the real one, and mail clients make links of plain text (found by helper-106).
  const text = [
    url ? `Open to decide: ${url}` : "This is a notice; nothing to decide.",
    "",
    "Written by the agent (its own words, not checked):",
    "",
    r.summary,
    "",
    ...(r.details ? [r.details, ""] : []),
    ...facts,
    "",
    footer,
  ].join("\n");
  const html = emailLayout(
    [
      url ? emailButton(url, r.kind === "question" ? "Open to answer" : "Open to decide") : "<p>This is a notice; nothing to decide.</p>",
      `<p style="color:#555;margin:16px 0 4px">Written by the agent (its own words, not checked):</p>`,
      `<h2 style="margin:0 0 12px;font-size:18px">${escapeHtml(r.summary)}</h2>`,
      r.details ? `<p style="white-space:pre-wrap;margin:0 0 12px">${escapeHtml(r.details)}</p>` : "",
      `<p style="color:#555;margin:0 0 16px">${facts.map(escapeHtml).join(" · ")}</p>`,
    ].join(""),
    footer,
  );
  // Cut on whole characters: half an emoji would reach the subject as U+FFFD.
  // "=?" broken up: an encoded word written in plain ASCII went into the header as it was, and mail clients decoded
  // it, a right-to-left override included, past revealInvisible (found by helper-106).
  const subject = sliceWhole(`${url ? kindLabel[r.kind] : "Approved"}: ${r.summary.replaceAll("=?", "= ?")}`, 200);
  // The link decides the request: an agent reading the project's sent mail must not find it.
  await queueSystemMail(tx, { projectId: r.projectId, to: opts.channel.address!, subject, text, html, secrets: url ? [url] : [] });
}

/**
 * What the agent wrote, with invisible characters written out (`[U+202E]`): a right-to-left override in a summary
 * would otherwise show the person approving `pay 10 to Bob` for what is stored as another text.
 */
function agentTextShown(r: ApprovalRequest): ApprovalRequest {
  const shown = (s: string | null) => (s === null ? null : revealInvisible(s));
  return { ...r, summary: revealInvisible(r.summary), details: shown(r.details), action: shown(r.action), agent: shown(r.agent) };
}
