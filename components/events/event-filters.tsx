"use client";

import type * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

type Props = { values: Record<string, string | undefined>; sources: string[] };

/** A GET form (works without JavaScript); with it, empty fields are left out of the URL. */
export function EventFilters({ values, sources }: Props) {
  const router = useRouter();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(event.currentTarget)) if (typeof v === "string" && v.trim()) q.set(k, v.trim());
    router.push(q.size ? `/events?${q}` : "/events");
  }

  const label = "text-xs font-normal text-muted-foreground";
  return (
    <form method="get" action="/events" onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
      {values.status && values.status !== "all" && <input type="hidden" name="status" value={values.status} />}
      <div className="grid gap-1.5">
        <Label htmlFor="f-source" className={label}>
          Source
        </Label>
        <NativeSelect id="f-source" name="source" defaultValue={values.source ?? ""} className="w-44 [&>select]:h-8">
          <option value="">any</option>
          {[...new Set([...sources, "brynth", ...(values.source ? [values.source] : [])])].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-type" className={label}>
          Type
        </Label>
        <Input id="f-type" name="type" defaultValue={values.type} placeholder="invoice.* or exact" className="h-8 w-56" />
      </div>
      <Button type="submit" size="sm" variant="secondary">
        Apply
      </Button>
      <Button variant="ghost" size="sm" asChild>
        <Link href="/events">Reset</Link>
      </Button>
    </form>
  );
}
