import type { MailAuthVerdicts } from "@/lib/db/schema/mail";

/**
 * Why a message counts as unauthenticated, in the owner's words: the verdicts that failed, else that nothing
 * passed (categorizeInbound's rules). `none`, `neutral` and the like are named as they are.
 */
export function authReason(a: MailAuthVerdicts | null): string {
  if (!a) return "No authentication results were recorded.";
  const named = [
    ["SPF", a.spf],
    ["DKIM", a.dkim],
    ["DMARC", a.dmarc],
  ] as const;
  const failed = named.filter(([, v]) => v === "fail").map(([k]) => `${k} fail`);
  // This instance's own reason (from-agreement.ts), when it turned a verdict into a failure.
  const why = /^brynth: (.+)/.exec(a.details ?? "")?.[1];
  if (failed.length > 0) return `${failed.join(", ")} (${others(named, "fail")})${why ? `: ${why}` : ""}`;
  return `Nothing passed: ${named.map(([k, v]) => `${k} ${v || "none"}`).join(", ")}`;
}

const others = (named: readonly (readonly [string, string])[], except: string) =>
  named
    .filter(([, v]) => v !== except)
    .map(([k, v]) => `${k} ${v || "none"}`)
    .join(", ");
