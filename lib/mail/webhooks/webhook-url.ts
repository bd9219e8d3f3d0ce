import { outboundUrlProblem } from "@/lib/http/outbound-address";

/**
 * Ports a webhook may not target even on a public host (design §2.10 d): SMTP submission and relay, POP3, IMAP
 * and Redis, which an HTTP POST with attacker-chosen headers could otherwise talk to.
 */
const REFUSED_PORTS = new Set(["25", "465", "587", "110", "143", "6379"]);

/**
 * Why a webhook URL may not be used, or null: the outbound check every user URL gets (https only, no credentials,
 * no private, mapped, link-local or local-name host; http only for OUTBOUND_ALLOW_HOSTS), plus the refused ports.
 * Judged at create and update; names that resolve to blocked addresses are refused again at connect time.
 */
export function webhookUrlProblem(raw: string): string | null {
  const problem = outboundUrlProblem(raw);
  if (problem) return problem;
  const port = new URL(raw).port;
  return REFUSED_PORTS.has(port) ? `must not use port ${port} (mail and database ports are refused)` : null;
}
