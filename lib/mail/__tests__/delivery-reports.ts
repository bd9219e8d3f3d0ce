import { SMTPConnection } from "@/lib/mail/__tests__/smtp-connection";

/**
 * A delivery status notification (RFC 3464) about one of our messages, as a relay's MAILER-DAEMON writes it: one
 * failed recipient, and the original's headers quoting the Message-ID we gave it.
 */
export function dsnReport(o: { to: string; rfcId: string; failed: string; status?: string; headers?: string[] }): string {
  const status = o.status ?? "5.1.1";
  return [
    "From: Mail Delivery System <MAILER-DAEMON@relay.example>",
    `To: ${o.to}`,
    "Subject: Undelivered Mail Returned to Sender",
    `Message-ID: <dsn-${o.rfcId}>`,
    "Auto-Submitted: auto-replied",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--b1",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; relay.example",
    "",
    `Final-Recipient: rfc822; ${o.failed}`,
    "Action: failed",
    `Status: ${status}`,
    `Diagnostic-Code: smtp; 550 ${status} <${o.failed}>: Recipient address rejected`,
    "",
    "--b1",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: <${o.rfcId}>`,
    `From: ${o.to}`,
    ...(o.headers ?? []),
    "",
    "--b1--",
    "",
  ].join("\r\n");
}

/**
 * Hands a report to the listener the way DSNs come: with a null sender (MAIL FROM:<>), or `mailFrom` as a forger
 * would send one. Returns the final reply.
 */
export async function sendReport(port: number, rcpt: string, raw: string, mailFrom = ""): Promise<string> {
  const conn = new SMTPConnection(port);
  await conn.open();
  await conn.cmd("EHLO relay.example");
  await conn.cmd(`MAIL FROM:<${mailFrom}>`);
  await conn.cmd(`RCPT TO:<${rcpt}>`);
  await conn.cmd("DATA");
  const reply = await conn.cmd(`${raw}.`);
  await conn.close();
  return reply;
}
