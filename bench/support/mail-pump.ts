/**
 * The SMTP client side of bench/mail.ts, in its own process (as real senders are): sends COUNT messages of
 * BYTES bytes to 127.0.0.1:PORT over CONNECTIONS pooled nodemailer connections, all queued at once, and prints
 * `done {"messages":…,"errors":…,"seconds":…,"per_second":…}`.
 */
import nodemailer from "nodemailer";

async function main() {
  const port = Number(process.env.PORT);
  const count = Number(process.env.COUNT);
  const to = process.env.TO!;
  const tag = process.env.TAG ?? "m";
  const body = Array.from({ length: 400 }, (_, i) => `Line ${i} of a twenty kilobyte message body, plain ASCII text.`)
    .join("\n")
    .slice(0, Number(process.env.BYTES ?? 20 * 1024));
  const t = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    pool: true,
    maxConnections: Number(process.env.CONNECTIONS ?? 4),
    maxMessages: Infinity,
    ignoreTLS: true,
  });
  const t0 = performance.now();
  let errors = 0;
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      t
        .sendMail({ from: "sender@bench.example", to, subject: `${tag} ${i}`, text: body, messageId: `<${tag}-${i}-${Date.now()}@bench.example>` })
        .catch(() => errors++),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  t.close();
  console.log(`done ${JSON.stringify({ messages: count, errors, seconds: Number(seconds.toFixed(2)), per_second: Math.round((count - errors) / seconds) })}`);
  process.exit(0);
}
main();
