"use client";

import type * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

type Props = { values: Record<string, string | undefined>; mailboxes: Array<{ id: string; address: string }> };

/** A GET form (works without JavaScript); with it, empty fields are left out of the URL. */
export function QuarantineFilters({ values, mailboxes }: Props) {
  const router = useRouter();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(event.currentTarget)) if (typeof v === "string" && v.trim()) q.set(k, v.trim());
    router.push(q.size ? `/mail/quarantine?${q}` : "/mail/quarantine");
  }

  const label = "text-xs font-normal text-muted-foreground";
  return (
    <form method="get" action="/mail/quarantine" onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
      {values.category && values.category !== "all" && <input type="hidden" name="category" value={values.category} />}
      <div className="grid gap-1.5">
        <Label htmlFor="q-inbox" className={label}>
          Mailbox
        </Label>
        <NativeSelect id="q-inbox" name="inbox" defaultValue={values.inbox ?? ""} className="w-72 [&>select]:h-8">
          <option value="">every mailbox</option>
          {mailboxes.map((m) => (
            <option key={m.id} value={m.id}>
              {m.address}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" size="sm" variant="secondary">
        Apply
      </Button>
      <Button variant="ghost" size="sm" asChild>
        <Link href="/mail/quarantine">Reset</Link>
      </Button>
    </form>
  );
}
