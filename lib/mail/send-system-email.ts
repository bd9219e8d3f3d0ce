import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/validation";
import { defaultMailbox } from "@/lib/mail/project-address";
import { checkRoute } from "@/lib/mail/outbound/check-route";
import { BODY_MAX_BYTES, SUBJECT_MAX_CHARS } from "@/lib/mail/outbound/limits";
import { oneLine, plainAddress, utf8Max } from "@/lib/mail/outbound/address-rules";
import { queueMessages } from "@/lib/mail/outbound/queue-message";

const input = z.object({
  projectId: z.string().min(1),
  to: plainAddress,
  subject: oneLine(SUBJECT_MAX_CHARS),
  text: utf8Max(BODY_MAX_BYTES, "text"),
  html: utf8Max(BODY_MAX_BYTES, "html").optional(),
  /** Extra headers, e.g. `List-Unsubscribe`; names are tokens, values one line. */
  headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,64}$/), oneLine(998)).optional(),
  /** Text only the recipient may see (a decision or verification link): withheld from the stored copy. */
  secrets: z.array(z.string().min(16)).optional(),
});
export type SystemEmail = z.input<typeof input>;

/** What the stored copy of a system message says in place of a secret. */
export const WITHHELD = "[link withheld: sent to the recipient only]";

/**
 * Mail Brynth sends itself (approval requests, channel verification) from the project address, through the same
 * pipeline as email_send: a queued message and a delivery job in the caller's transaction, DKIM-signed, retried,
 * shown on the Outbound mail screen. Marked `Auto-Submitted: auto-generated`; it does not count toward the
 * agents' daily/monthly limits, makes no `email.failed` event, and replies to it make no `email.received`.
 * `secrets` (the links that decide a request or verify a channel) go to the recipient only: the stored message, which
 * agents read with the mailbox tools, says WITHHELD in their place, and the body as sent is kept sealed beside it.
 * Throws validation_error on bad input, service_unavailable when `to` is outside and no relay is set.
 */
export async function sendSystemEmail(tx: Executor, mail: SystemEmail): Promise<{ messageId: string; status: "queued" }> {
  const m = parseOrThrow(input, mail);
  const localDomains = await checkRoute(tx, m.projectId, [m.to]);
  const mailbox = await defaultMailbox(tx, m.projectId);
  const secrets = m.secrets ?? [];
  const withhold = (body: string) => secrets.reduce((out, secret) => out.replaceAll(secret, WITHHELD), body);
  const [queued] = await queueMessages(tx, {
    mailbox,
    to: [m.to],
    subject: m.subject,
    text: withhold(m.text),
    html: m.html === undefined ? null : withhold(m.html),
    sealed: secrets.length > 0 ? { text: m.text, html: m.html ?? null } : null,
    attachments: [],
    localDomains,
    batchId: null,
    replyToInbox: false,
    countsQuota: false,
    keyId: null,
    agent: "brynth",
    headers: { ...m.headers, "Auto-Submitted": "auto-generated" },
  });
  return { messageId: queued.id, status: "queued" };
}
