import type { Executor } from "@/lib/db/client";
import { together } from "@/lib/db/together";
import { AppError } from "@/lib/errors";
import { isLocalDomain } from "@/lib/mail/inbound/resolve-recipient";
import { relayFor } from "@/lib/mail/outbound/relay-config";

/**
 * Every recipient must be reachable before anything is queued: same-instance domains always are; outside ones need
 * a relay, else service_unavailable (spec: no transport configured). Returns the recipients' domains that are this
 * instance's own (delivered locally).
 */
export async function checkRoute(db: Executor, projectId: string, recipients: readonly string[]): Promise<Set<string>> {
  const domains = [...new Set(recipients.map((r) => r.slice(r.lastIndexOf("@") + 1).toLowerCase()))];
  const outside: string[] = [];
  const local = new Set<string>();
  const found: { relay: Awaited<ReturnType<typeof relayFor>> | Error } = { relay: null };
  // One pipelined round trip on PostgreSQL: each domain's lookup and the relay's. The relay's own error (a stored
  // password that cannot be read) matters only to mail that needs it.
  await together([
    ...domains.map((d) => async () => void ((await isLocalDomain(db, d)) ? local.add(d) : outside.push(d))),
    async () => void (found.relay = await relayFor(db, projectId).catch((err: Error) => err)),
  ]);
  if (outside.length > 0 && found.relay instanceof Error) throw found.relay;
  if (outside.length > 0 && !found.relay) {
    throw new AppError(
      "service_unavailable",
      `No outbound mail transport is configured, so mail to ${outside.join(", ")} cannot be sent. Nothing was queued.`,
      {
        fix: "Ask the owner to set an SMTP relay (Mail settings screen, or SMTP_RELAY_URL); addresses on this instance work without one.",
      },
    );
  }
  return local;
}
