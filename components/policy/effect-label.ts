import type { Effect } from "@/lib/policy/policy-schema";

/** Effects as the owner reads them: "this request: in force → ask the owner; draft → auto-approve". */
export const effectLabels: Record<Effect, string> = {
  allow: "allow",
  deny: "deny",
  require_approval: "ask the owner",
  auto_approve: "auto-approve",
  auto_approve_notify: "auto-approve and notify",
};
