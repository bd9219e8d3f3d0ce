"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { FormAlert } from "@/components/ui/form-alert";
import type { ActionResult } from "@/lib/auth/owner-action";
import { EffectBadge } from "@/components/policy/effect-badge";
import { type GatedTool, gatedTools } from "@/lib/policy/gated-tools";

type Verdict = {
  effect: "allow" | "deny" | "require_approval" | "auto_approve" | "auto_approve_notify";
  rule: string | null;
  decidedBy: string | null;
  asked: string[];
};
type Result = { inForce: Verdict & { version: number }; draft: (Verdict & { baseVersion: number }) | null };
type SimulateInput = { action?: string; tool?: GatedTool; risk?: "low" | "medium" | "high"; amount?: number; recipients?: string[] };

function VerdictPanel({ title, verdict }: { title: string; verdict: Verdict | null }) {
  return (
    <section aria-label={title} className="grid min-w-0 content-start gap-1 rounded-md border bg-muted/30 p-3 text-sm">
      <h3 className="text-xs font-medium text-muted-foreground">{title}</h3>
      {verdict ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <EffectBadge effect={verdict.effect} />
            <span className="text-muted-foreground">{verdict.rule ? `by rule ${verdict.rule}` : "no rule matches: the default"}</span>
          </div>
          {verdict.decidedBy && <p className="break-words text-muted-foreground">decided_by: {verdict.decidedBy}</p>}
          {verdict.asked.length > 0 && (
            <p className="break-words text-muted-foreground">
              {verdict.effect === "require_approval" ? "Asked" : "Told"}: {verdict.asked.join(", ")}
            </p>
          )}
        </>
      ) : (
        <p className="text-muted-foreground">No draft saved. Save one to compare.</p>
      )}
    </section>
  );
}

/** "What would this request get?" under the policy in force and under the saved draft, side by side. */
export function PolicySimulator({ simulateAction }: { simulateAction: (input: SimulateInput) => Promise<ActionResult<Result>> }) {
  const [what, setWhat] = React.useState<"ask" | GatedTool>("ask");
  const [result, setResult] = React.useState<Result | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const [pending, startTransition] = React.useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const input: SimulateInput =
      what === "ask"
        ? {
            action: text("action") || undefined,
            risk: (text("risk") || "medium") as SimulateInput["risk"],
            amount: text("amount") ? Number(text("amount")) : undefined,
          }
        : {
            tool: what,
            recipients:
              what !== "file_url"
                ? text("recipients")
                    .split(/[\s,]+/)
                    .filter(Boolean)
                : undefined,
          };
    startTransition(async () => {
      const res = await simulateAction(input);
      if (!res.ok) return void setError(res.error);
      setError(null);
      setResult(res.data);
    });
  }

  return (
    <form onSubmit={onSubmit} className="grid grid-cols-1 gap-3">
      <FormField id="sim-what" label="Request">
        <NativeSelect value={what} onChange={(e) => setWhat(e.target.value as typeof what)}>
          <option value="ask">ask_approval</option>
          {gatedTools.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {what === "ask" && (
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          <FormField id="sim-action" label="Action">
            <Input name="action" placeholder="refund" />
          </FormField>
          <FormField id="sim-risk" label="Risk">
            <NativeSelect name="risk" defaultValue="medium">
              <option value="low">low</option>
              <option value="medium">medium</option>
              <option value="high">high</option>
            </NativeSelect>
          </FormField>
          <FormField id="sim-amount" label="Amount">
            <Input name="amount" type="number" step="any" placeholder="30" />
          </FormField>
        </div>
      )}
      {what !== "ask" && what !== "file_url" && (
        <FormField id="sim-recipients" label="Recipients" description="Addresses separated by commas or spaces.">
          <Input name="recipients" placeholder="ann@example.com, bob@customer.org" />
        </FormField>
      )}
      <div>
        <Button type="submit" size="sm" variant="outline" disabled={pending}>
          Simulate
        </Button>
      </div>
      <FormAlert>{error}</FormAlert>
      {result && (
        <div role="status" className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <VerdictPanel title={`In force (version ${result.inForce.version})`} verdict={result.inForce} />
          <VerdictPanel title="Draft" verdict={result.draft} />
        </div>
      )}
    </form>
  );
}
