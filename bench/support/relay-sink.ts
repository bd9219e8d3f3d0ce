import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * The relay's far end for the sending benches: counts messages and envelope recipients, remembers when each subject
 * arrived, and says when a count is reached or a subject has arrived.
 */
export async function relaySink() {
  let messages = 0;
  let rcpts = 0;
  const subjects = new Map<string, number>();
  const arrivals = new Map<string, (at: number) => void>();
  let waiter: { n: number; resolve: () => void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, session, cb) {
      let head = "";
      stream.on("data", (c: Buffer) => {
        if (head.length < 4096) head += c.toString("latin1");
      });
      stream.on("end", () => {
        const at = performance.now();
        messages++;
        rcpts += session.envelope.rcptTo.length;
        const subject = /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? "";
        subjects.set(subject, (subjects.get(subject) ?? 0) + 1);
        arrivals.get(subject)?.(at);
        if (waiter && messages >= waiter.n) waiter.resolve();
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.server.address() as AddressInfo).port,
    stats: () => ({ messages, rcpts }),
    count: (subject: string) => subjects.get(subject) ?? 0,
    /** Resolves with performance.now() when a message with this subject arrives (register before it can). */
    arrival: (subject: string) => new Promise<number>((resolve) => arrivals.set(subject, resolve)),
    reach: (n: number, ms: number) =>
      new Promise<boolean>((resolve) => {
        if (messages >= n) return resolve(true);
        const timer = setTimeout(() => resolve(false), ms);
        waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(true);
          },
        };
      }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
