import type { Executor } from "@/lib/db/client";
import { env } from "@/lib/env";
import { queueSystemMail } from "@/lib/approvals/deliveries/system-mail";
import { emailButton, emailLayout } from "@/lib/approvals/deliveries/email-layout";
import { escapeHtml } from "@/lib/text/escape-html";

/** The link opens a page whose button POSTs the verification: a scanner following the link verifies nothing. */
export async function sendVerificationEmail(
  tx: Executor,
  opts: { projectId: string; projectName?: string; to: string; label: string; token: string; expiresAt: Date },
) {
  const url = `${env().publicUrl}/verify/${opts.token}`;
  const project = opts.projectName ? ` of “${opts.projectName}”` : "";
  const lead = `Brynth was asked to send approval requests${project} to this address (channel “${opts.label}”).`;
  const after = "After you confirm, the project owner approves the channel before any request arrives. If you did not expect this, ignore this email.";
  await queueSystemMail(tx, {
    projectId: opts.projectId,
    to: opts.to,
    subject: "Confirm this address for Brynth approvals",
    text: `${lead}\n\nConfirm: ${url}\n\n${after}\nThe link works once and expires ${opts.expiresAt.toISOString()}.`,
    html: emailLayout(
      `<p style="margin:0 0 16px">${escapeHtml(lead)}</p>${emailButton(url, "Confirm this address")}<p style="margin:16px 0 0;color:#555">${escapeHtml(after)}</p>`,
      `The link works once and expires ${opts.expiresAt.toISOString()}.`,
    ),
  });
}
