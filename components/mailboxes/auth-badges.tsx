import { Badge } from "@/components/ui/badge";

type Verdicts = { spf: string; dkim: string; dmarc: string } | null;

// `policy`: a DKIM signature that verified but leaves part of the body unsigned (authenticate-message.ts).
const variant = (v: string) =>
  v === "pass" ? "success" : v === "fail" || v === "permerror" ? "destructive" : v === "softfail" || v === "policy" ? "warning" : "secondary";

/** One badge per verdict this instance computed (never a sender's own Authentication-Results). */
export function AuthBadges({ verdicts, local }: { verdicts: Verdicts; local?: boolean }) {
  if (local) return <Badge variant="secondary">Local delivery</Badge>;
  if (!verdicts) return null;
  return (
    <span className="inline-flex flex-wrap gap-1" title="Authentication (SPF, DKIM, DMARC)">
      {(["spf", "dkim", "dmarc"] as const).map((k) => (
        <Badge key={k} variant={variant(verdicts[k])} title={`${k.toUpperCase()}: ${verdicts[k]}`}>
          {k.toUpperCase()} {verdicts[k]}
        </Badge>
      ))}
    </span>
  );
}
