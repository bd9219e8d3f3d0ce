import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Rule } from "@/lib/policy/policy-schema";
import { EffectBadge } from "@/components/policy/effect-badge";
import { ruleConditions } from "@/components/policy/rule-conditions";

/** The rules in order: the first that matches decides. */
export function RulesTable({ rules, channelLabel }: { rules: Rule[]; channelLabel: (id: string) => string }) {
  return (
    <div className="rounded-lg border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="w-10 pl-4">#</TableHead>
            <TableHead>Rule</TableHead>
            <TableHead>When</TableHead>
            <TableHead>Effect</TableHead>
            <TableHead className="pr-4">Asked or told</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rules.map((r, i) => (
            <TableRow key={r.id} data-rule-id={r.id}>
              <TableCell className="pl-4 text-muted-foreground tabular-nums">{i + 1}</TableCell>
              <TableCell className="whitespace-normal">
                <span className="font-mono text-xs font-medium">{r.id}</span>
                {r.description && <span className="block text-xs text-muted-foreground">{r.description}</span>}
              </TableCell>
              <TableCell className="whitespace-normal">{ruleConditions(r)}</TableCell>
              <TableCell>
                <EffectBadge effect={r.effect} />
              </TableCell>
              <TableCell className="pr-4 text-muted-foreground">
                {r.effect === "require_approval" || r.effect === "auto_approve_notify"
                  ? (r.approvers?.map(channelLabel).join(", ") ?? "the request's approvers, else every active channel")
                  : "—"}
              </TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell className="pl-4 text-muted-foreground">—</TableCell>
            <TableCell className="text-muted-foreground" colSpan={4}>
              Otherwise: ask_approval goes to a person; email_send and file_url are allowed.
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </div>
  );
}
