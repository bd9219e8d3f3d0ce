import type { Executor } from "@/lib/db/client";
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
  for (const d of domains) (await isLocalDomain(db, d)) ? local.add(d) : outside.push(d);
  if (outside.length > 0 && !(await relayFor(db, projectId))) {
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
