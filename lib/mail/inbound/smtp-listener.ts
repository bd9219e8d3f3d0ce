import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { getDb } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import { env } from "@/lib/env";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";
import type { MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";
import { addressLimit } from "@/lib/http/address-limit";
import { byteBudget } from "@/lib/mail/inbound/smtp-byte-budget";
import { commandTimeouts } from "@/lib/mail/inbound/smtp-command-timeouts";
import { loadSmtpTls } from "@/lib/mail/inbound/smtp-tls";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { recordRejection } from "@/lib/mail/inbound/record-rejection";
import { cachedRecipient } from "@/lib/mail/inbound/recipient-cache";

export interface SmtpListenerOptions {
  port: number;
  host?: string;
  /** DNS for SPF/DKIM/DMARC; tests give answers. Default: the system resolver with a timeout. */
  resolver?: MailDnsResolver;
  maxBytes?: number;
  onError?: (err: unknown) => void;
}

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

const MAX_RECIPIENTS = 100;

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The inbound SMTP listener. Never an open relay: RCPT is accepted only for existing mailboxes of this instance's
 * domains (550 otherwise); a message over the size limit gets 552 and nothing is stored; a storage fault answers 451
 * so the sender retries. Protocol errors and handler failures end at most one transaction, never the listener.
 * Connections are capped per instance (SMTP_MAX_CLIENTS) and per client address (SMTP_MAX_CLIENTS_PER_IP): one over
 * either cap is greeted with 421 and closed, so a well-behaved sender retries later. A client silent for
 * SMTP_IDLE_TIMEOUT_MS is closed with 421, and so is one whose command line or message transfer is still unfinished
 * after SMTP_COMMAND_TIMEOUT_MS (a client trickling bytes is never idle). A message not stored within
 * SMTP_STORE_TIMEOUT_MS of its DATA's end gets 451 and is not committed afterwards (the sender retries), and one
 * that does not fit in SMTP_MAX_INFLIGHT_BYTES beside the messages already held gets 452. STARTTLS is offered only with a configured
 * certificate (SMTP_TLS_CERT and SMTP_TLS_KEY; a bad one stops the start with a ConfigError naming the setting).
 * Refusals of a project's recipients (unknown or disabled address, too many recipients, 552, 451) are logged to
 * mail_rejections in the background, never delaying the reply; relaying refusals belong to nobody and are not.
 */
export async function startSmtpListener(opts: SmtpListenerOptions): Promise<SmtpListener> {
  const maxBytes = opts.maxBytes ?? env().MAIL_MAX_MESSAGE_BYTES;
  const storeTimeout = env().SMTP_STORE_TIMEOUT_MS;
  const onError = opts.onError ?? ((err: unknown) => console.error("[brynth] smtp:", err));
  // The mailboxes accepted in the session's current transaction (reset at every MAIL FROM).
  const accepted = new Map<string, Mailbox[]>();
  const perAddress = addressLimit<string>(env().SMTP_MAX_CLIENTS_PER_IP);
  const budget = byteBudget(env().SMTP_MAX_INFLIGHT_BYTES);
  // The budget's share of each transfer still arriving, by session.
  const receiving = new Map<string, { release(): void }>();
  const tls = loadSmtpTls();
  // Refusals a project's owner should be able to see (record-rejection.ts): written in the background.
  const refuse = (session: SMTPServerSession, rcpt: string, code: number, message: string) => {
    void recordRejection(
      {
        remoteIp: session.remoteAddress ?? null,
        helo: session.hostNameAppearsAs || null,
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        rcpt,
        code,
        reason: message,
      },
      onError,
    );
    return smtpError(code, message);
  };

  const server = new SMTPServer({
    name: mailHostname(),
    banner: "Brynth ESMTP",
    size: maxBytes,
    authOptional: true,
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...tls,
    disableReverseLookup: true,
    logger: false,
    maxClients: env().SMTP_MAX_CLIENTS,
    socketTimeout: env().SMTP_IDLE_TIMEOUT_MS,
    closeTimeout: 5_000,
    onConnect(session, callback) {
      if (!perAddress.admit(session.id, session.remoteAddress))
        return callback(smtpError(421, "4.7.0 Too many connections from your address, try again later"));
      timeouts.start(session);
      callback();
    },
    onSecure(socket, session, callback) {
      // smtp-server pipes the TLS socket to its parser in this callback; the clock may only watch it after that.
      callback();
      timeouts.secured(session, socket);
    },
    onMailFrom(_address, session, callback) {
      accepted.set(session.id, []);
      callback();
    },
    onRcptTo(address, session, callback) {
      // The list is only ever added to, never stored here: storing it after the lookup put back the entry of a
      // session closed meanwhile, and a client hanging up during RCPT leaked a Mailbox per session (found by
      // helper-114). The list counts distinct mailboxes: a repeated RCPT used to count again, so 100 repeats of one
      // address refused a second recipient with 452 (found by helper-114).
      const list = accepted.get(session.id) ?? [];
      if (list.length >= MAX_RECIPIENTS) return callback(refuse(session, address.address, 452, "4.5.3 Too many recipients"));
      getDb()
        .then((db) => cachedRecipient(db, address.address))
        .then((r) => {
          if (r.kind === "foreign") return callback(smtpError(550, "5.7.1 Relaying denied: this server only accepts mail for its own domains"));
          if (r.kind === "unknown") return callback(refuse(session, address.address, 550, "5.1.1 No such mailbox here"));
          if (!list.some((m) => m.id === r.mailbox.id)) list.push(r.mailbox);
          callback();
        })
        .catch((err) => {
          onError(err);
          callback(smtpError(451, "4.3.0 Temporary failure, try again later"));
        });
    },
    onData(stream, session, callback) {
      timeouts.beginTransfer(session);
      const chunks: Buffer[] = [];
      let size = 0;
      // The bytes kept count against the listener's budget until the message is stored, or the transfer fails.
      const hold = budget.hold();
      receiving.set(session.id, hold);
      let overBudget = false;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes || overBudget) return;
        if (hold.add(chunk.length)) return void chunks.push(chunk);
        overBudget = true;
        chunks.length = 0;
        hold.release();
      });
      stream.on("error", (err) => {
        hold.release();
        onError(err);
      });
      stream.on("end", () => {
        timeouts.endTransfer(session);
        receiving.delete(session.id);
        // smtp-server itself answers 552 for an oversized message; nothing of it is kept.
        const recipients = accepted.get(session.id) ?? [];
        const refuseAll = (code: number, message: string) => {
          for (const m of recipients) refuse(session, m.address, code, message);
          return smtpError(code, message);
        };
        if (stream.sizeExceeded || size > maxBytes) {
          hold.release();
          return callback(refuseAll(552, "5.3.4 Message exceeds the size limit"));
        }
        if (overBudget) return callback(refuseAll(452, "4.3.1 Insufficient system storage, try again later"));
        // The client is answered once: by the store, or with 451 when the store outlasts its deadline (a stuck
        // commit, an exhausted pool), which also stops the message from being committed later.
        let answered = false;
        const answer = (err: Error | null) => {
          if (answered) return;
          answered = true;
          clearTimeout(timer);
          if (err) callback(err);
          else callback(null, "OK: message accepted");
        };
        // Every mailbox accepted at RCPT was deleted before its copy was written: nothing was stored, so the sender
        // is told so (and the owner's Rejected mail shows it), not 250.
        const stored = (copies: unknown[]) => answer(copies.length === 0 ? refuseAll(550, "5.1.1 The mailbox no longer exists") : null);
        const deadline = new AbortController();
        const timer = setTimeout(() => {
          deadline.abort(new Error(`storing the message took longer than SMTP_STORE_TIMEOUT_MS (${storeTimeout} ms)`));
          answer(refuseAll(451, "4.3.0 Storing the message took too long, try again later"));
        }, storeTimeout);
        receiveMessage(Buffer.concat(chunks, size), envelopeOf(session, recipients), { resolver: opts.resolver, signal: deadline.signal })
          .then(stored)
          .catch((err) => {
            if (answered) return;
            onError(err);
            answer(refuseAll(451, "4.3.0 Temporary failure storing the message, try again later"));
          })
          // Held until the store lets go of the bytes, which may be after the client was answered.
          .finally(() => hold.release());
      });
    },
    onClose(session) {
      // A transfer cut off by the client (or by the command timeout) gives its bytes back.
      receiving.get(session.id)?.release();
      receiving.delete(session.id);
      accepted.delete(session.id);
      perAddress.release(session.id);
      timeouts.stop(session);
    },
  });
  const timeouts = commandTimeouts(server, env().SMTP_COMMAND_TIMEOUT_MS);
  // Before listening succeeds, an error (EADDRINUSE) is the caller's to report: it rejects below.
  let listening = false;
  server.on("error", (err) => listening && onError(err));

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port, opts.host ?? env().SMTP_HOST ?? env().HOST, () => {
      server.server.off("error", reject);
      listening = true;
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function envelopeOf(session: SMTPServerSession, mailboxes: Mailbox[]) {
  const from = session.envelope.mailFrom;
  return {
    mailFrom: from ? from.address : null,
    recipients: mailboxes,
    remote: { ip: session.remoteAddress, helo: session.hostNameAppearsAs || null },
  };
}
