"use client";

import type * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

const statuses = ["approved", "denied", "modified", "answered", "needs_context", "expired", "pending"];
const kinds = [
  ["approval", "Approvals"],
  ["question", "Questions"],
  ["policy", "Policy changes"],
  ["tool", "Tool calls (email, links)"],
];

/** A GET form (works without JavaScript); with it, empty fields stay out of the URL. */
export function HistoryFilters({ values }: { values: Record<string, string | undefined> }) {
  const router = useRouter();
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = new URLSearchParams({ view: "history" });
    for (const [k, v] of new FormData(event.currentTarget)) if (typeof v === "string" && v.trim() && k !== "view") q.set(k, v.trim());
    router.push(`/approvals?${q}`);
  }
  const label = "text-xs font-normal text-muted-foreground";
  return (
    <form method="get" action="/approvals" onSubmit={onSubmit} className="grid gap-3 rounded-lg border bg-muted/20 p-3">
      <input type="hidden" name="view" value="history" />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <div className="grid gap-1.5">
          <Label htmlFor="h-status" className={label}>
            Status
          </Label>
          <NativeSelect id="h-status" name="status" defaultValue={values.status ?? ""} className="[&>select]:h-8">
            <option value="">any</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {s.replace("_", " ")}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="h-kind" className={label}>
            Kind
          </Label>
          <NativeSelect id="h-kind" name="kind" defaultValue={values.kind ?? ""} className="[&>select]:h-8">
            <option value="">any</option>
            {kinds.map(([k, l]) => (
              <option key={k} value={k}>
                {l}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="h-q" className={label}>
            Action or summary
          </Label>
          <Input id="h-q" name="q" defaultValue={values.q} placeholder="e.g. refund" className="h-8" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="h-agent" className={label}>
            Agent
          </Label>
          <Input id="h-agent" name="agent" defaultValue={values.agent} placeholder="any" className="h-8" />
        </div>
      </div>
      <div className="flex items-center gap-2">
        <Button type="submit" size="sm">
          Filter
        </Button>
        <Button variant="ghost" size="sm" asChild>
          <Link href="/approvals?view=history">Clear</Link>
        </Button>
      </div>
    </form>
  );
}
