import { outboundUrlProblem } from "@/lib/http/outbound-address";

/**
 * Why a webhook URL may not be used, or null: the outbound check every user URL gets (https only, no credentials,
 * no mail or database port, no private, mapped, link-local or local-name host; http only for OUTBOUND_ALLOW_HOSTS).
 * Judged at create and update; names that resolve to blocked addresses are refused again at connect time.
 */
export function webhookUrlProblem(raw: string): string | null {
  return outboundUrlProblem(raw);
}
