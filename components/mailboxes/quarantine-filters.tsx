"use client";

import { FilterButtons, FilterForm, FilterSelect } from "@/components/ui/filter-form";

type Props = { values: Record<string, string | undefined>; mailboxes: Array<{ id: string; address: string }> };

/** Quarantine's mailbox filter; the category tab chosen above it is kept. */
export function QuarantineFilters({ values, mailboxes }: Props) {
  return (
    <FilterForm path="/mail/quarantine" tab={["category", values.category]}>
      <FilterSelect
        id="q-inbox"
        name="inbox"
        label="Mailbox"
        value={values.inbox}
        anyLabel="every mailbox"
        options={mailboxes.map((m) => ({ value: m.id, label: m.address }))}
        className="w-72"
      />
      <FilterButtons />
    </FilterForm>
  );
}
