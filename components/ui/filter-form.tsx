"use client";

import * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

type FilterFormProps = {
  /** The list's own path: the form's GET action and where "Reset" leads. */
  path: string;
  /** Parameters every filtered URL keeps, Reset's too (e.g. `view=history`), sent as hidden fields. */
  fixed?: Record<string, string>;
  /** The tab chosen above the filters, as [name, value]: filtering keeps it, Reset leaves it; "all" is no tab. */
  tab?: readonly [name: string, value: string | undefined];
  /** A fragment to land on (e.g. `#deliveries` on a screen with several lists). */
  hash?: string;
  className?: string;
  children: React.ReactNode;
};

/** Where the enclosing FilterForm's Reset leads, so FilterButtons never spells its list's path again. */
const ResetHref = React.createContext<string | null>(null);

/** `path` with `params` as its query, then `hash`. */
const listUrl = (path: string, params: Record<string, string>, hash: string) => {
  const q = new URLSearchParams(params);
  return q.size ? `${path}?${q}${hash}` : `${path}${hash}`;
};

/**
 * A list's filters as a GET form, so they work without JavaScript; with it, empty fields are left out of the URL.
 * Every filter bar of the dashboard is one of these, so they read and behave alike.
 */
export function FilterForm({ path, fixed = {}, tab, hash = "", className, children }: FilterFormProps) {
  const router = useRouter();
  const kept = tab?.[1] && tab[1] !== "all" ? { ...fixed, [tab[0]]: tab[1] } : fixed;

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = { ...kept };
    for (const [k, v] of new FormData(event.currentTarget)) {
      if (typeof v === "string" && v.trim() && !(k in kept)) q[k] = v.trim();
    }
    router.push(listUrl(path, q, hash));
  }

  return (
    <ResetHref value={listUrl(path, fixed, hash)}>
      <form
        method="get"
        action={`${path}${hash}`}
        onSubmit={onSubmit}
        className={className ?? "flex flex-wrap items-end gap-3"}
      >
        {Object.entries(kept).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        {children}
      </form>
    </ResetHref>
  );
}

/** A labelled filter field, the label small and muted above its control. */
export function FilterField({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className="text-xs font-normal text-muted-foreground">
        {label}
      </Label>
      {children}
    </div>
  );
}

type Option = string | { value: string; label: string };

/** A filter choosing one of `options`; its empty first option (`anyLabel`) means no filter. */
export function FilterSelect(props: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  anyLabel: string;
  options: readonly Option[];
  className?: string;
}) {
  return (
    <FilterField id={props.id} label={props.label}>
      <NativeSelect
        id={props.id}
        name={props.name}
        defaultValue={props.value ?? ""}
        className={`${props.className ?? ""} [&>select]:h-8`}
      >
        <option value="">{props.anyLabel}</option>
        {props.options.map((o) => {
          const { value, label } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </NativeSelect>
    </FilterField>
  );
}

/** Submit and reset, in the same words on every list unless the screen has better ones; inside a FilterForm. */
export function FilterButtons({
  apply = "Apply",
  reset = "Reset",
  primary = false,
}: {
  apply?: string;
  reset?: string;
  primary?: boolean;
}) {
  const resetHref = React.useContext(ResetHref);
  if (resetHref === null) throw new Error("FilterButtons belongs inside a FilterForm, whose path Reset leads to.");
  return (
    <>
      <Button type="submit" size="sm" variant={primary ? "default" : "secondary"}>
        {apply}
      </Button>
      <Button variant="ghost" size="sm" asChild>
        <Link href={resetHref}>{reset}</Link>
      </Button>
    </>
  );
}
