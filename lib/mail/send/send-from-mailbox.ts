import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import type { MailDraft } from "@/lib/db/schema/mail-send";
import { together } from "@/lib/db/together";
import { AppError } from "@/lib/errors";
import { getPolicy } from "@/lib/policy/get-policy";
import { evaluatePolicy, type Verdict } from "@/lib/policy/evaluate-policy";
import type { GatedTool } from "@/lib/policy/policy-schema";
import { createRequest } from "@/lib/approvals/create-request";
import { holdForApproval } from "@/lib/mail/drafts/hold-for-approval";
import { describeSend } from "@/lib/mail/send/describe-send";
import { checkRoute } from "@/lib/mail/outbound/check-route";
import { queueOutbound } from "@/lib/mail/outbound/queue-message";
import { reserveQuota } from "@/lib/mail/outbound/reserve-quota";
import { storeOutboundFiles } from "@/lib/mail/outbound/store-outbound-files";
import { checkMailboxSends } from "@/lib/mail/send/check-mailbox-sends";
import { checkSendLists } from "@/lib/mail/send/check-send-lists";
import { resolveSendAttachments, type SendFiles } from "@/lib/mail/send/resolve-send-attachments";
import { recipientFields, type SendRequest } from "@/lib/mail/send/send-request";

/**
 * Who set the send off: an agent's tool call, a draft's schedule, the owner's approval of a held draft, or the
 * owner in the dashboard. Only agents' sends (direct or scheduled) meet the mailbox's send policy and the project
 * policy; an approved draft was already held once, and the owner set the policy.
 */
export type SendOrigin = "agent" | "schedule" | "approved" | "owner";

/**
 * The origin of a send tool's call: the owner's own credentials over REST or /mcp send as the dashboard's compose
 * does (no hold of their own policy); an API key or OAuth grant is an agent.
 */
export const toolCallOrigin = (actor: Actor): SendOrigin => (actor.type === "owner" ? "owner" : "agent");

export type SendOutcome = { sent: { messageId: string; threadId: string; sendStatus: "queued" } } | { held: { draftId: string; requestId: string } };

/**
 * The one send path (design §2.8): send_message, reply_to_message, forward_message, send_draft, scheduled drafts,
 * approvals and the owner's compose all come here. Checks run before anything is written, in this order: the
 * mailbox's state and `read_only` policy, the send lists, the route (no transport → service_unavailable),
 * attachments, then either a hold for approval (the mailbox's `approval` policy or a project policy rule) or the
 * queued message with its deliveries and, last, the quota. A refused send writes nothing and queues nothing.
 */
export async function sendFromMailbox(
  tx: Executor,
  o: { actor: Actor; mailbox: Mailbox; request: SendRequest; origin: SendOrigin; tool: GatedTool; draft?: MailDraft },
): Promise<SendOutcome> {
  const { actor, mailbox, request: r } = o;
  const byAgent = o.origin === "agent" || o.origin === "schedule";
  checkMailboxSends(mailbox, { tool: o.tool, byAgent });
  const recipients = recipientFields(r);
  // Independent reads, pipelined; the first refusal in this order is the answer: lists, route, files, policy.
  let localDomains = new Set<string>();
  let files: SendFiles = { fresh: [], kept: [] };
  let verdict: PolicyVerdict | null = null;
  await together([
    () => checkSendLists(tx, { projectId: mailbox.projectId, mailboxId: mailbox.id, fields: recipients }),
    async () => {
      localDomains = await checkRoute(
        tx,
        mailbox.projectId,
        recipients.map((f) => f.address),
      );
    },
    async () => {
      files = await resolveSendAttachments(tx, actor, r.attachments, r.kept);
    },
    byAgent && (async () => void (verdict = await policyVerdict(tx, actor, o.tool, recipients))),
  ]);
  // Set only for an agent's send. A rule may add a hold (with its approvers) or refuse, never lift the mailbox's own.
  const v = verdict as PolicyVerdict | null;
  if (v?.effect === "require_approval" || (v && mailbox.sendPolicy === "approval")) {
    return { held: await holdForApproval(tx, { actor, mailbox, request: r, files, draft: o.draft, verdict: v.effect === "require_approval" ? v : undefined }) };
  }
  const stored = [...files.kept, ...(await storeOutboundFiles(tx, mailbox.projectId, files.fresh))];
  const [m] = await queueOutbound(tx, {
    mailbox,
    items: [
      {
        to: r.to,
        cc: r.cc,
        bcc: r.bcc,
        replyTo: r.replyTo,
        subject: r.subject,
        text: r.text,
        html: r.html,
        customHeaders: r.headers,
        labels: r.labels,
        thread: r.thread,
        references: r.references,
        draftId: o.draft?.id ?? null,
      },
    ],
    attachments: stored,
    localDomains,
    countsQuota: true,
    keyId: o.draft?.keyId ?? actor.keyId,
    agent: o.draft?.agent ?? actor.agent,
  });
  // Last: the counters stay locked until commit, so every concurrent send of the project waits on them (a refusal
  // rolls the queued message back with the transaction: nothing is written). One count per recipient that gets the
  // mail: queueOutbound delivers an address named twice (to and bcc, any case) once, so it is counted once.
  await reserveQuota(tx, mailbox.projectId, new Set(recipients.map((f) => f.address.toLowerCase())).size);
  if (v?.effect === "auto_approve" || v?.effect === "auto_approve_notify") {
    await recordPolicyApproval(tx, { actor, tool: o.tool, verdict: v, mailbox, request: r, messageId: m.id, files: stored.map((f) => f.name) });
  }
  return { sent: { messageId: m.id, threadId: m.threadId, sendStatus: "queued" } };
}

type PolicyVerdict = Verdict & { version: number };

/**
 * The project policy over the four send tools (design §1.9 6), as it decides email_send: `deny` refuses (even in an
 * `approval` mailbox: a refusal is stricter than a hold a person could approve), `require_approval` holds the send
 * as a draft, `auto_approve(_notify)` sends it and records the policy's approval (recordPolicyApproval).
 */
async function policyVerdict(tx: Executor, actor: Actor, tool: GatedTool, recipients: Array<{ address: string }>): Promise<PolicyVerdict> {
  const current = await getPolicy(tx, actor.projectId);
  const domains = [...new Set(recipients.map((f) => f.address.slice(f.address.lastIndexOf("@") + 1).toLowerCase()))];
  const verdict = evaluatePolicy(current.policy, { action: tool, tool, risk: "medium", amount: null, domains });
  if (verdict.effect === "deny") {
    throw new AppError("POLICY_DENIED", `The project policy refuses this ${tool} call (rule ${verdict.rule?.id ?? "default"}). Nothing was sent.`, {
      fix: "Do not retry this send; ask the owner to change the policy if it should be allowed.",
      details: { rule: verdict.rule?.id ?? null },
    });
  }
  return { ...verdict, version: current.version };
}

/**
 * A send the policy approved on its own, recorded as email_send's is: an approved request decided by the rule, with
 * what was sent, on the Approvals screen and in the ledger; `auto_approve_notify` also tells the rule's approvers.
 */
async function recordPolicyApproval(
  tx: Executor,
  o: { actor: Actor; tool: GatedTool; verdict: PolicyVerdict; mailbox: Mailbox; request: SendRequest; messageId: string; files: string[] },
): Promise<void> {
  const { request: r } = o;
  const lines = [
    `From: ${o.mailbox.address}`,
    `To: ${r.to.join(", ")}`,
    ...(r.cc.length ? [`Cc: ${r.cc.join(", ")}`] : []),
    ...(r.bcc.length ? [`Bcc: ${r.bcc.join(", ")}`] : []),
    `Subject: ${r.subject}`,
    ...(o.files.length ? [`Attachments: ${o.files.join(", ")}`] : []),
  ];
  const recipients = [...r.to, ...r.cc, ...r.bcc];
  await createRequest(tx, {
    actor: o.actor,
    kind: "tool",
    action: o.tool,
    ...describeSend({ subject: r.subject, recipients, lines, body: r.text ?? "" }),
    risk: "medium",
    expiresInMs: 24 * 3600_000,
    payload: { message_id: o.messageId, inbox_id: o.mailbox.id, to: r.to, cc: r.cc, bcc: r.bcc, subject: r.subject },
    verdict: o.verdict,
  });
}
