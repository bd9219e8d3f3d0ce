"use client";

import { FilterButtons, FilterField, FilterForm, FilterSelect } from "@/components/ui/filter-form";
import { Input } from "@/components/ui/input";

type LedgerFiltersProps = {
  values: Record<string, string | undefined>;
  ops: string[];
  platforms: readonly string[];
};

/** The ledger's filters, in a panel: an op (suggested from those seen), agent, platform, subject and a time range. */
export function LedgerFilters({ values, ops, platforms }: LedgerFiltersProps) {
  return (
    <FilterForm path="/ledger" className="grid gap-3 rounded-lg border bg-muted/20 p-3">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <FilterField id="f-op" label="Op">
          <Input id="f-op" name="op" defaultValue={values.op} list="ledger-ops" placeholder="any" className="h-8" />
          <datalist id="ledger-ops">
            {ops.map((op) => (
              <option key={op} value={op} />
            ))}
          </datalist>
        </FilterField>
        <FilterField id="f-agent" label="Agent">
          <Input id="f-agent" name="agent" defaultValue={values.agent} placeholder="any" className="h-8" />
        </FilterField>
        <FilterSelect id="f-platform" name="platform" label="Platform" value={values.platform} anyLabel="any" options={platforms} />
        <FilterField id="f-subject" label="Subject">
          <Input id="f-subject" name="subject" defaultValue={values.subject} placeholder="e.g. key_…" className="h-8" />
        </FilterField>
        <FilterField id="f-since" label="Since (UTC)">
          <Input id="f-since" name="since" type="datetime-local" defaultValue={localValue(values.since)} className="h-8" />
        </FilterField>
        <FilterField id="f-until" label="Until (UTC)">
          <Input id="f-until" name="until" type="datetime-local" defaultValue={localValue(values.until)} className="h-8" />
        </FilterField>
      </div>
      <div className="flex items-center justify-end gap-2">
        <FilterButtons apply="Apply filters" />
      </div>
    </FilterForm>
  );
}

/** datetime-local wants "YYYY-MM-DDTHH:mm"; the URL may hold a full ISO time (UTC). */
function localValue(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v)) return v;
  const d = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(v) || !v.includes("T") ? v : `${v}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 16);
}
