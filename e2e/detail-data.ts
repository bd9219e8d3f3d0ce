import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { server, test } from "./fixtures";
import { startRelaySink } from "./relay-sink";
import { rest } from "./rest";

/**
 * One of each object a dashboard detail screen shows, made the way agents and scripts make them (owner REST, the
 * agent REST API with a key made over owner REST, real mail over SMTP), so the accessibility sweep always walks every
 * detail screen instead of whichever an earlier spec happened to leave. `cleanup` puts back what later specs rely
 * on: the relay, the policy in force, no webhook left to deliver to, no request left waiting.
 */
export interface DetailData {
  /** The mailbox the HTML mail was sent to (`mbx_…`). */
  inboxId: string;
  /** A pending request and a decided one. */
  requestId: string;
  decidedRequestId: string;
  webhookId: string;
  draftId: string;
  kvKey: string;
  /** A policy version that is history, not in force. */
  policyVersion: number;
  /** The subject of the received HTML mail, to find its thread. */
  receivedSubject: string;
  cleanup(): Promise<void>;
}

type Relay = { relay: { host: string; port: number; security: string; username: string | null } | null };
type Rules = { rules: Record<string, unknown>[] };

export async function seedDetailData(): Promise<DetailData> {
  const id = randomUUID().slice(0, 8);
  const sink = await startRelaySink();
  const relayBefore = await rest<Relay>("/owner/mail/relay");
  const cleanups: Array<() => Promise<unknown>> = [() => sink.close()];
  const cleanup = async () => {
    // Newest first: the relay goes back before its sink closes.
    for (const undo of cleanups.reverse()) await undo();
  };
  try {
    const scopes = ["approvals", "disk", "inbox_create", "message_send", "draft_create", "webhook_create", "webhook_delete"];
    const key = await rest<{ id: string; secret: string }>("/keys", { method: "POST", body: { name: `e2e a11y ${id}`, scopes } });
    cleanups.push(() => rest(`/keys/${key.id}`, { method: "DELETE" }));
    const agent = `Bearer ${key.secret}`;

    // The relay points at a local sink so the outbound message is really sent and has the relay's answer.
    await rest("/owner/mail/relay", { method: "PUT", body: { host: "127.0.0.1", port: sink.port, security: "none", clear_password: true } });
    cleanups.push(async () => {
      const r = relayBefore.relay;
      if (r) await rest("/owner/mail/relay", { method: "PUT", body: { host: r.host, port: r.port, security: r.security, username: r.username ?? undefined } });
      else await rest("/owner/mail/relay", { method: "DELETE" });
    });

    const inbox = await rest<{ inbox_id: string; email: string }>("/inboxes", {
      method: "POST",
      auth: agent,
      body: { username: `a11y-${id}`, display_name: `Accessibility ${id}` },
    });

    // A webhook on that mailbox first, so the mail below leaves an attempt in its log.
    const hook = await rest<{ webhook_id: string }>("/webhooks", {
      method: "POST",
      auth: agent,
      body: { url: `https://hooks.example.com/a11y-${id}`, event_types: ["message.received"], inbox_ids: [inbox.inbox_id] },
    });
    cleanups.push(() => rest(`/webhooks/${hook.webhook_id}`, { method: "DELETE", auth: agent }));

    // The project address feeds the email source: mail to it is an event (an agent-made mailbox has no source).
    const sources = await rest<{ sources: { name: string; type: string; address: string | null }[] }>("/owner/sources");
    let emailSource = sources.sources.find((s) => s.type === "email");
    if (!emailSource) {
      emailSource = await rest<{ name: string; type: string; address: string | null }>("/owner/sources", {
        method: "POST",
        body: { type: "email", name: `a11y-mail-${id}` },
      });
      const name = emailSource.name;
      cleanups.push(() => rest(`/owner/sources/${name}`, { method: "DELETE" }));
    }

    // A received HTML mail (a thread in the new mailbox; an event through the project address), and a message sent
    // through the relay (an outbound detail).
    const receivedSubject = `Invoice ${id} for review`;
    const outside = nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });
    try {
      for (const to of [inbox.email, emailSource.address ?? inbox.email]) {
        await outside.sendMail({
          from: `Ada Example <ada-${id}@example.org>`,
          to,
          subject: receivedSubject,
          text: `Hello, the invoice ${id} is attached as a table.`,
          html: `<h1>Invoice ${id}</h1><p>Hello, the <b>invoice</b> is below.</p><table><tr><th>Item</th><th>Amount</th></tr><tr><td>Hosting</td><td>12.00 €</td></tr></table><p><a href="https://example.org/pay">Pay online</a></p>`,
        });
      }
    } finally {
      outside.close();
    }
    const sentSubject = `Your order ${id}`;
    await rest(`/inboxes/${inbox.inbox_id}/messages/send`, {
      method: "POST",
      auth: agent,
      body: { to: [`reader-${id}@example.net`], subject: sentSubject, text: `Hello,\n\nyour order ${id} is on its way.\n` },
    });
    await sink.waitFor((m) => m.mail.subject === sentSubject);

    const draft = await rest<{ draft_id: string }>(`/inboxes/${inbox.inbox_id}/drafts`, {
      method: "POST",
      auth: agent,
      body: { to: [`reader-${id}@example.net`], subject: `Draft reply ${id}`, text: "A reply that is not sent yet." },
    });

    const asked = await rest<{ request_id: string }>("/approvals", {
      method: "POST",
      auth: agent,
      body: {
        action: "refund",
        summary: `Refund 12 € for order ${id}?`,
        amount: 12,
        risk: "low",
        details: `Order ${id}: one hosting plan, paid twice by mistake.`,
        wait_seconds: 0,
      },
    });
    cleanups.push(async () => {
      const r = await rest<{ status: string }>(`/requests/${asked.request_id}`, { auth: agent });
      if (r.status === "pending") await rest(`/requests/${asked.request_id}/decision`, { method: "POST", body: { outcome: "deny" } });
    });
    // A decided request's detail shows the outcome instead of the decision buttons.
    const decided = await rest<{ request_id: string }>("/approvals", {
      method: "POST",
      auth: agent,
      body: { action: "refund", summary: `Refund 30 € for order ${id}?`, amount: 30, risk: "low", wait_seconds: 0 },
    });
    await rest(`/requests/${decided.request_id}/decision`, { method: "POST", body: { outcome: "deny" } });

    const kvKey = `a11y-${id}`;
    await rest(`/kv/${encodeURIComponent(kvKey)}`, { method: "PUT", auth: agent, body: { value: { order: id, items: [1, 2, 3] } } });

    // Two applied versions: the first becomes history (a policy version that is not in force has its own view).
    const start = await rest<Rules>("/policy", { auth: agent });
    const apply = async (rules: Record<string, unknown>[], note: string) => {
      await rest("/owner/policy/draft", { method: "PUT", body: { policy: { rules }, note } });
      return rest<{ version: number }>("/owner/policy/apply", { method: "POST", body: {} });
    };
    const extra = { id: `a11y-${id}`, tool: "email_send", domains: [`held-${id}.example`], effect: "require_approval" };
    const history = await apply([extra, ...start.rules], "e2e: a version for the accessibility sweep");
    await apply(start.rules, "e2e: back to the start");

    return {
      inboxId: inbox.inbox_id,
      requestId: asked.request_id,
      decidedRequestId: decided.request_id,
      webhookId: hook.webhook_id,
      draftId: draft.draft_id,
      kvKey,
      policyVersion: history.version,
      receivedSubject,
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * A spec's detail data: made before its tests (a minute at most) and undone after them. Read `data` inside tests,
 * once beforeAll has run.
 */
export function detailDataForSpec(): { data: DetailData } {
  const held = {} as { data: DetailData };
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    held.data = await seedDetailData();
  });
  test.afterAll(async () => {
    await held.data?.cleanup();
  });
  return held;
}
