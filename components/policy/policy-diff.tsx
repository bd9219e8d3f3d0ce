import { EffectBadge } from "@/components/policy/effect-badge";
import { effectLabels } from "@/components/policy/effect-label";
import { ruleConditions } from "@/components/policy/rule-conditions";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { isEmptyDiff, type PolicyDiff as Diff, type RuleField } from "@/lib/policy/diff-policy";
import type { Effect, Rule } from "@/lib/policy/policy-schema";

const fieldNames: Record<RuleField, string> = {
  effect: "effect",
  action: "action",
  tool: "tool",
  risk: "risk",
  amount_gt: "amount more than",
  amount_lte: "amount at most",
  domains: "all recipients at",
  domains_any: "any recipient at",
  approvers: "asked or told",
  description: "description",
};

function show(field: RuleField, value: unknown, channelLabel: (id: string) => string): string {
  if (value === undefined) return "not set";
  if (field === "effect") return effectLabels[value as Effect];
  if (field === "approvers") return (value as string[]).map(channelLabel).join(", ");
  return Array.isArray(value) ? value.join(", ") : String(value);
}

function RuleLine({ rule }: { rule: Rule }) {
  return (
    <>
      <span className="font-mono text-xs font-medium">{rule.id}</span>: {ruleConditions(rule)} → <EffectBadge effect={rule.effect} />
    </>
  );
}

/** One version against the one before, as sentences: rules added, removed, changed field by field, moved. */
export function PolicyDiff({ diff, channelLabel }: { diff: Diff; channelLabel: (id: string) => string }) {
  if (isEmptyDiff(diff)) return <p className="text-sm text-muted-foreground">Same rules as the version before.</p>;
  return (
    <ul className="grid grid-cols-1 gap-1.5 text-sm break-words" aria-label="Changes">
      {diff.added.map(({ position, rule }) => (
        <li key={`+${rule.id}`} data-change="added">
          <span className="font-medium text-emerald-700 dark:text-emerald-400">Added</span> rule {position} <RuleLine rule={rule} />
        </li>
      ))}
      {diff.removed.map(({ position, rule }) => (
        <li key={`-${rule.id}`} data-change="removed">
          <span className="font-medium text-destructive">Removed</span> rule {position} <RuleLine rule={rule} />
        </li>
      ))}
      {diff.changed.map(({ id, changes }) => (
        <li key={`~${id}`} data-change="changed">
          <span className="font-medium text-amber-700 dark:text-amber-400">Changed</span> <span className="font-mono text-xs font-medium">{id}</span>:{" "}
          {changes.map((c, i) => (
            <span key={c.field}>
              {i > 0 && "; "}
              {/* A description or a channel label is an agent's text: isolated, so its direction cannot reverse the sentence. */}
              {fieldNames[c.field]} <UntrustedText text={show(c.field, c.before, channelLabel)} /> →{" "}
              <UntrustedText text={show(c.field, c.after, channelLabel)} />
            </span>
          ))}
        </li>
      ))}
      {diff.moved.map(({ id, from, to }) => (
        <li key={`>${id}`} data-change="moved">
          <span className="font-medium">Moved</span> <span className="font-mono text-xs font-medium">{id}</span> from position {from} to {to}
        </li>
      ))}
    </ul>
  );
}
