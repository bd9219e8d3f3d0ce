import type { JobKind } from "@/lib/jobs/define-job-kind";
import { deliverMessageJob } from "@/lib/mail/outbound/deliver-message-job";
import { callbackJob } from "@/lib/approvals/callbacks/callback-job";
import { telegramSendJob } from "@/lib/telegram/jobs/send-request-job";
import { telegramCloseJob } from "@/lib/telegram/jobs/close-request-job";
import { sendDraftJob } from "@/lib/mail/drafts/send-draft-job";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";

/** Every job kind this build can run: an explicit list, like the tool registry. Add a line per kind. */
// biome-ignore lint/suspicious/noExplicitAny: kinds with different payloads share this list; JobKind<unknown> would refuse them (the handler takes P)
export const jobKinds: readonly JobKind<any>[] = [deliverMessageJob, callbackJob, telegramSendJob, telegramCloseJob, sendDraftJob, webhookDeliveryJob];

const byKind = new Map(jobKinds.map((k) => [k.kind, k]));
export const findJobKind = (kind: string) => byKind.get(kind);
