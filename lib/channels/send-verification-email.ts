import type { Executor } from "@/lib/db/client";
import { queueSystemMail } from "@/lib/approvals/deliveries/system-mail";
import { emailButton, emailLayout } from "@/lib/approvals/deliveries/email-layout";
import { escapeHtml } from "@/lib/text/escape-html";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { publicUrl } from "@/lib/settings/remote-access";

/**
 * The link opens a page whose button POSTs the verification: a scanner following the link verifies nothing. The
 * mail says what confirming does: a channel the owner added is active at once; one an agent added still waits for
 * the owner's approval (lib/channels/verify-channel.ts), so only that mail mentions one.
 */
export async function sendVerificationEmail(
  tx: Executor,
  opts: { projectId: string; projectName?: string; to: string; label: string; token: string; expiresAt: Date; addedByOwner: boolean },
) {
  const url = `${publicUrl()}/verify/${opts.token}`;
  const project = opts.projectName ? ` of “${opts.projectName}”` : "";
  // The label is an agent's pick: a right-to-left override in it would turn the sentence around it.
  const lead = `Brynth was asked to send approval requests${project} to this address (channel “${revealInvisible(opts.label)}”).`;
  const after = opts.addedByOwner
    ? "Once you confirm, the channel is active: the requests it is asked arrive at this address. If you did not expect this, ignore this email and nothing is sent here."
    : "An agent added this channel, so once you confirm, the project owner still approves it in the dashboard; requests arrive here only after that. If you did not expect this, ignore this email and nothing is sent here.";
  await queueSystemMail(tx, {
    projectId: opts.projectId,
    to: opts.to,
    subject: "Confirm this address for Brynth approvals",
    text: `${lead}\n\nConfirm: ${url}\n\n${after}\nThe link works once and expires ${opts.expiresAt.toISOString()}.`,
    html: emailLayout(
      `<p style="margin:0 0 16px">${escapeHtml(lead)}</p>${emailButton(url, "Confirm this address")}<p style="margin:16px 0 0;color:#555">${escapeHtml(after)}</p>`,
      `The link works once and expires ${opts.expiresAt.toISOString()}.`,
    ),
    // The link confirms the address: an agent reading the project's sent mail must not find it.
    secrets: [url],
  });
}
