/**
 * The SMTP client side of bench/mail-threaded.ts, in its own process (as real senders are): sends the messages
 * listed in MESSAGES_FILE (JSON: to, subject, messageId, inReplyTo?, kind) to 127.0.0.1:PORT over CONNECTIONS
 * pooled nodemailer connections, all queued at once, and prints `done {"messages":…,"errors":…,"seconds":…,"per_second":…}`.
 * A root is a plain 20 KB text; a reply is a short answer over the parent's text quoted Gmail-style (`On … wrote:`
 * and `> ` lines), so reply extraction has a real quote to remove.
 * Every message is composed (MIME, quoted-printable) before the clock starts, as real senders compose theirs on
 * their own machines: composing 20 KB took this process about 3 ms a message, more CPU than the server spent
 * receiving it, on the same two cores.
 */
import { readFileSync } from "node:fs";
import nodemailer from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";

interface Planned {
  to: string;
  subject: string;
  messageId: string;
  inReplyTo?: string;
  kind: "root" | "reply";
}

async function main() {
  const port = Number(process.env.PORT);
  const planned = JSON.parse(readFileSync(process.env.MESSAGES_FILE!, "utf8")) as Planned[];
  const bytes = Number(process.env.BYTES ?? 20 * 1024);
  const body = Array.from({ length: 400 }, (_, i) => `Line ${i} of a twenty kilobyte message body, plain ASCII text.`)
    .join("\n")
    .slice(0, bytes);
  const quoted = `Thanks, that works for me. Let us go ahead.\n\nOn Tue, Dec 1, 2026 at 10:00 AM Sender <sender@bench.example> wrote:\n${body
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n")}`.slice(0, bytes);
  const t = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    pool: true,
    maxConnections: Number(process.env.CONNECTIONS ?? 4),
    maxMessages: Infinity,
    ignoreTLS: true,
  });
  const from = "sender@bench.example";
  const composed = await Promise.all(
    planned.map(async (m) => ({
      to: m.to,
      raw: await new MailComposer({
        from,
        to: m.to,
        subject: m.subject,
        text: m.kind === "reply" ? quoted : body,
        messageId: m.messageId,
        ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: [m.inReplyTo] } : {}),
      })
        .compile()
        .build(),
    })),
  );
  const t0 = performance.now();
  let errors = 0;
  await Promise.all(composed.map((m) => t.sendMail({ envelope: { from, to: [m.to] }, raw: m.raw }).catch(() => errors++)));
  const seconds = (performance.now() - t0) / 1000;
  t.close();
  const count = planned.length;
  console.log(`done ${JSON.stringify({ messages: count, errors, seconds: Number(seconds.toFixed(2)), per_second: Math.round((count - errors) / seconds) })}`);
  process.exit(0);
}
main();
