"use client";

import { Checkbox } from "@/components/ui/checkbox";
import { FilterButtons, FilterField, FilterForm, FilterSelect } from "@/components/ui/filter-form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

type Props = { values: Record<string, string | undefined>; sources: string[] };

/** Events' filters; the status tab chosen above them is kept. */
export function EventFilters({ values, sources }: Props) {
  return (
    <FilterForm path="/events" tab={["status", values.status]}>
      <FilterSelect
        id="f-source"
        name="source"
        label="Source"
        value={values.source}
        anyLabel="any"
        options={[...new Set([...sources, "brynth", ...(values.source ? [values.source] : [])])]}
        className="w-44"
      />
      <FilterField id="f-type" label="Type">
        <Input id="f-type" name="type" defaultValue={values.type} placeholder="invoice.* or exact" className="h-8 w-56" />
      </FilterField>
      <div className="flex h-8 items-center gap-2">
        <Checkbox id="f-bookkeeping" name="bookkeeping" value="1" defaultChecked={values.bookkeeping === "1"} />
        <Label htmlFor="f-bookkeeping" className="text-xs font-normal text-muted-foreground">
          Show request.resolved (Brynth's bookkeeping)
        </Label>
      </div>
      <FilterButtons />
    </FilterForm>
  );
}
