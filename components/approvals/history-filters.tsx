"use client";

import { FilterButtons, FilterField, FilterForm, FilterSelect } from "@/components/ui/filter-form";
import { Input } from "@/components/ui/input";

const statuses = ["approved", "denied", "modified", "answered", "needs_context", "expired", "pending"];
const kinds = [
  { value: "approval", label: "Approvals" },
  { value: "question", label: "Questions" },
  { value: "policy", label: "Policy changes" },
  { value: "tool", label: "Tool calls (email, links)" },
];

/** Approval history's filters: status, kind, words of the action or summary, and the agent. */
export function HistoryFilters({ values }: { values: Record<string, string | undefined> }) {
  return (
    <FilterForm path="/approvals" fixed={{ view: "history" }} className="grid gap-3 rounded-lg border bg-muted/20 p-3">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <FilterSelect
          id="h-status"
          name="status"
          label="Status"
          value={values.status}
          anyLabel="any"
          options={statuses.map((s) => ({ value: s, label: s.replace("_", " ") }))}
        />
        <FilterSelect id="h-kind" name="kind" label="Kind" value={values.kind} anyLabel="any" options={kinds} />
        <FilterField id="h-q" label="Action or summary">
          <Input id="h-q" name="q" defaultValue={values.q} placeholder="e.g. refund" className="h-8" />
        </FilterField>
        <FilterField id="h-agent" label="Agent">
          <Input id="h-agent" name="agent" defaultValue={values.agent} placeholder="any" className="h-8" />
        </FilterField>
      </div>
      <div className="flex items-center gap-2">
        <FilterButtons apply="Filter" reset="Clear" primary />
      </div>
    </FilterForm>
  );
}
