"use client";

import type * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

type LedgerFiltersProps = {
  values: Record<string, string | undefined>;
  ops: string[];
  platforms: readonly string[];
};

/** A GET form (works without JavaScript); with it, empty fields are left out of the URL. */
export function LedgerFilters({ values, ops, platforms }: LedgerFiltersProps) {
  const router = useRouter();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(event.currentTarget)) if (typeof v === "string" && v.trim()) q.set(k, v.trim());
    router.push(q.size ? `/ledger?${q}` : "/ledger");
  }

  const field = "grid gap-1.5";
  const label = "text-xs font-normal text-muted-foreground";
  return (
    <form method="get" action="/ledger" onSubmit={onSubmit} className="grid gap-3 rounded-lg border bg-muted/20 p-3">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <div className={field}>
          <Label htmlFor="f-op" className={label}>
            Op
          </Label>
          <Input id="f-op" name="op" defaultValue={values.op} list="ledger-ops" placeholder="any" className="h-8" />
          <datalist id="ledger-ops">
            {ops.map((op) => (
              <option key={op} value={op} />
            ))}
          </datalist>
        </div>
        <div className={field}>
          <Label htmlFor="f-agent" className={label}>
            Agent
          </Label>
          <Input id="f-agent" name="agent" defaultValue={values.agent} placeholder="any" className="h-8" />
        </div>
        <div className={field}>
          <Label htmlFor="f-platform" className={label}>
            Platform
          </Label>
          <NativeSelect id="f-platform" name="platform" defaultValue={values.platform ?? ""} className="[&>select]:h-8">
            <option value="">any</option>
            {platforms.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className={field}>
          <Label htmlFor="f-subject" className={label}>
            Subject
          </Label>
          <Input id="f-subject" name="subject" defaultValue={values.subject} placeholder="e.g. key_…" className="h-8" />
        </div>
        <div className={field}>
          <Label htmlFor="f-since" className={label}>
            Since (UTC)
          </Label>
          <Input id="f-since" name="since" type="datetime-local" defaultValue={localValue(values.since)} className="h-8" />
        </div>
        <div className={field}>
          <Label htmlFor="f-until" className={label}>
            Until (UTC)
          </Label>
          <Input id="f-until" name="until" type="datetime-local" defaultValue={localValue(values.until)} className="h-8" />
        </div>
      </div>
      <div className="flex items-center justify-end gap-2">
        <Button variant="ghost" size="sm" asChild>
          <Link href="/ledger">Reset</Link>
        </Button>
        <Button type="submit" size="sm" variant="secondary">
          Apply filters
        </Button>
      </div>
    </form>
  );
}

/** datetime-local wants "YYYY-MM-DDTHH:mm"; the URL may hold a full ISO time (UTC). */
function localValue(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v)) return v;
  const d = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(v) || !v.includes("T") ? v : `${v}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 16);
}
