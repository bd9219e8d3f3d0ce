import { env } from "@/lib/env";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { setSmtpStatus } from "@/lib/mail/inbound/smtp-status";
import type { Service } from "@/lib/services/start-services";

const g = globalThis as { __brynthSmtp?: Promise<SmtpListener> };

/**
 * Inbound mail on SMTP_PORT (default 2525; 0 turns it off). One listener per process. A port that is taken does not
 * stop the instance (the dashboard and API still serve): it is logged loudly and shown on the Mail settings screen.
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
      const message = err instanceof Error ? err.message : String(err);
      console.error(`[brynth] the SMTP listener could not start on port ${port}: ${message}. No mail will be received until it can.`);
      setSmtpStatus({ state: "failed", port, error: message });
      return async () => {};
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
