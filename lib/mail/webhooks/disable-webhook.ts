import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { owners } from "@/lib/db/schema/owners";
import { projects } from "@/lib/db/schema/projects";
import { emailLayout } from "@/lib/approvals/deliveries/email-layout";
import { sendSystemEmail } from "@/lib/mail/send-system-email";
import { cancelWebhookDeliveries } from "@/lib/mail/webhooks/statements";
import { escapeHtml } from "@/lib/text/escape-html";
import { publicUrl } from "@/lib/settings/remote-access";

/** `disabled_reason` of an endpoint that answered 410: it said it will never take another delivery. */
export const GONE_REASON = "410 Gone";
/** A webhook failing without a single success this long is switched off (design §2.9), and its owner told. */
export const SUSTAINED_FAILURE_MS = 5 * 24 * 3_600_000;
export const SUSTAINED_FAILURE_REASON = "failing for 5 days";

/**
 * Switches a webhook off on its deliveries' say-so (a 410, or sustained failure) and cancels its pending
 * deliveries, whose queued jobs go with them. Only the call that flips it returns true, so of two deliveries
 * failing at once only one tells the owner.
 */
export async function disableWebhook(tx: Executor, o: { projectId: string; webhookId: string; reason: string }): Promise<boolean> {
  const [flipped] = await tx
    .update(mailWebhooks)
    .set({ enabled: false, disabledReason: o.reason, updatedAt: sql`now()` })
    .where(and(eq(mailWebhooks.projectId, o.projectId), eq(mailWebhooks.id, o.webhookId), eq(mailWebhooks.enabled, true)))
    .returning({ id: mailWebhooks.id });
  if (!flipped) return false;
  await cancelWebhookDeliveries(tx, o.projectId, o.webhookId, "mail.webhook");
  return true;
}

/**
 * Emails the project's owner that a webhook was switched off, in the caller's transaction (through the same
 * pipeline as approval mail). The notice is best effort: an owner address that cannot be reached (no relay) must
 * not keep the webhook on, so a failure is logged and undone alone (a savepoint), never the disabling.
 */
export async function tellOwnerWebhookDisabled(tx: Executor, o: { projectId: string; webhookId: string; url: string; reason: string }): Promise<boolean> {
  const [owner] = await tx
    .select({ email: owners.email, project: projects.name })
    .from(projects)
    .innerJoin(owners, eq(owners.id, projects.ownerId))
    .where(eq(projects.id, o.projectId));
  if (!owner) return false;
  const screen = `${publicUrl()}/mail/webhooks`;
  const lines = [
    `The webhook ${o.webhookId} of project "${owner.project}" was switched off: ${o.reason}.`,
    `Endpoint: ${o.url}`,
    "",
    "No more events are sent to it. Its delivery log is kept: fix the endpoint, then enable the webhook again and resend what it missed.",
    `Webhooks: ${screen}`,
  ];
  try {
    await tx.transaction((sp) =>
      sendSystemEmail(sp, {
        projectId: o.projectId,
        to: owner.email,
        subject: `Webhook switched off: ${o.reason}`,
        text: lines.join("\n"),
        html: emailLayout(
          lines
            .filter(Boolean)
            .map((l) => `<p style="margin:0 0 12px">${escapeHtml(l)}</p>`)
            .join(""),
          `Project ${owner.project}`,
        ),
      }),
    );
    return true;
  } catch (err) {
    console.error(`[brynth] could not tell the owner that webhook ${o.webhookId} was switched off:`, err);
    return false;
  }
}
