"use client";

import type * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { type ThreadSearch, threadHref } from "@/components/mailboxes/thread-search";

const toggles = [
  ["spam", "Spam"],
  ["blocked", "Blocked"],
  ["unauth", "Unauthenticated"],
  ["trash", "Trash"],
] as const;

/** A GET form (works without JavaScript): search, labels, sender, subject and the include toggles. */
export function ThreadFilters({ inboxId, values }: { inboxId: string; values: ThreadSearch }) {
  const router = useRouter();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: ThreadSearch = {};
    for (const [k, v] of new FormData(event.currentTarget)) if (typeof v === "string" && v.trim()) next[k as keyof ThreadSearch] = v.trim();
    // A new filter starts at the first page, with no thread open.
    router.push(threadHref(inboxId, { view: values.view }, next));
  }

  const label = "text-xs font-normal text-muted-foreground";
  return (
    <form method="get" action={`/mail/${inboxId}`} onSubmit={onSubmit} className="grid gap-2" aria-label="Thread filters">
      <div className="grid gap-1">
        <Label htmlFor="mail-q" className="sr-only">
          Search mail
        </Label>
        <Input id="mail-q" name="q" type="search" defaultValue={values.q} placeholder="Search mail (words, &quot;a phrase&quot;, -word)" className="h-8" />
      </div>
      <div className="grid grid-cols-3 gap-2">
        <div className="grid gap-1">
          <Label htmlFor="mail-from" className={label}>
            Sender
          </Label>
          <Input id="mail-from" name="from" defaultValue={values.from} className="h-8" />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="mail-subject" className={label}>
            Subject
          </Label>
          <Input id="mail-subject" name="subject" defaultValue={values.subject} className="h-8" />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="mail-labels" className={label}>
            Labels
          </Label>
          <Input id="mail-labels" name="labels" defaultValue={values.labels} placeholder="unread, follow-up" className="h-8" />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <span className="text-muted-foreground">Include</span>
        {toggles.map(([name, text]) => (
          <label key={name} className="inline-flex items-center gap-1.5">
            <input type="checkbox" name={name} value="1" defaultChecked={values[name] === "1"} className="size-3.5 accent-primary" />
            {text}
          </label>
        ))}
        <span className="ml-auto flex gap-2">
          <Button type="submit" size="sm" variant="secondary" className="h-7">
            Apply
          </Button>
          <Button asChild size="sm" variant="ghost" className="h-7">
            <Link href={`/mail/${inboxId}`}>Reset</Link>
          </Button>
        </span>
      </div>
    </form>
  );
}
