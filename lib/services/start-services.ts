import { ledgerSealer } from "@/lib/services/ledger-sealer";
import { diskJanitor } from "@/lib/services/disk-janitor";
import { jobRunner } from "@/lib/services/job-runner";
import { smtpListener } from "@/lib/services/smtp-listener";
import { approvalsExpiry } from "@/lib/services/approvals-expiry";
import { telegramBots } from "@/lib/services/telegram-bots";
import { embeddedAutovacuum } from "@/lib/services/embedded-autovacuum";

/**
 * Background services of one process (SMTP listener, job runner, Telegram bot, …). Each entry starts once per
 * process (kept on globalThis by the service itself) and returns its stop function.
 */
export type Service = { name: string; start: () => Promise<() => Promise<void>> };

export const services: Service[] = [ledgerSealer, diskJanitor, jobRunner, smtpListener, approvalsExpiry, telegramBots, embeddedAutovacuum];

const SLOW_STOP_MS = 1_000;

export async function startServices(log: (line: string) => void = console.log): Promise<() => Promise<void>> {
  const stops: Array<{ name: string; stop: () => Promise<void> }> = [];
  const stopAll = async () => {
    for (const { name, stop } of stops.reverse()) {
      const started = performance.now();
      await stop().catch((err) => console.error(err));
      // A stop that holds the process's exit says which service held it.
      const took = performance.now() - started;
      if (took >= SLOW_STOP_MS) console.log(`[brynth] ${name} took ${(took / 1000).toFixed(1)} s to stop`);
    }
  };
  for (const s of services) {
    try {
      stops.push({ name: s.name, stop: await s.start() });
    } catch (err) {
      // One service that cannot start fails the start: the ones already running stop, so the caller can close the
      // database and exit.
      await stopAll();
      throw err;
    }
    log(`  ${s.name} started`);
  }
  return stopAll;
}
