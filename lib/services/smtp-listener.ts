import { env } from "@/lib/env";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import type { Service } from "@/lib/services/start-services";

const g = globalThis as { __brynthSmtp?: Promise<SmtpListener> };

/** Inbound mail on SMTP_PORT (default 2525; 0 turns it off). One listener per process. */
export const smtpListener: Service = {
  name: "smtp listener",
  async start() {
    const port = env().SMTP_PORT;
    if (port === 0) return async () => {};
    g.__brynthSmtp ??= startSmtpListener({ port });
    const listener = await g.__brynthSmtp;
    console.log(`  smtp listening on port ${listener.port} for ${env().MAIL_DOMAIN}`);
    return async () => {
      g.__brynthSmtp = undefined;
      await listener.close();
    };
  },
};
