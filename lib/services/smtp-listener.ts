import { env } from "@/lib/env";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { setSmtpStatus } from "@/lib/mail/inbound/smtp-status";
import { portError } from "@/lib/services/port-error";
import type { Service } from "@/lib/services/start-services";

const g = globalThis as { __brynthSmtp?: Promise<SmtpListener> };

/**
 * Inbound mail on SMTP_PORT (default 2525; 0 turns it off). One listener per process. A port that is taken stops the
 * instance's start (StartupError naming the port and SMTP_PORT): an instance that silently receives no mail is worse
 * than one that does not start.
 */
export const smtpListener: Service = {
  name: "smtp listener",
  async start() {
    const port = env().SMTP_PORT;
    if (port === 0) {
      setSmtpStatus({ state: "off" });
      return async () => {};
    }
    g.__brynthSmtp ??= startSmtpListener({ port });
    let listener: SmtpListener;
    try {
      listener = await g.__brynthSmtp;
    } catch (err) {
      g.__brynthSmtp = undefined;
      const failure = portError(err, { label: "SMTP port", port, variable: "SMTP_PORT", hint: "or 0 to turn the listener off" });
      setSmtpStatus({ state: "failed", port, error: failure.message });
      throw failure;
    }
    setSmtpStatus({ state: "listening", port: listener.port });
    console.log(`  smtp listening on port ${listener.port} for ${env().MAIL_DOMAIN}`);
    return async () => {
      g.__brynthSmtp = undefined;
      setSmtpStatus({ state: "off" });
      await listener.close();
    };
  },
};
