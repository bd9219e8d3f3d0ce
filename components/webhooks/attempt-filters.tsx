"use client";

import { FilterButtons, FilterForm, FilterSelect } from "@/components/ui/filter-form";

type Props = {
  values: Record<string, string | undefined>;
  webhooks: Array<{ id: string; url: string }>;
  eventTypes: readonly string[];
};

const outcomes = ["succeeded", "failed"];
const windows = [
  { value: "1h", label: "last hour" },
  { value: "24h", label: "last 24 hours" },
  { value: "7d", label: "last 7 days" },
  { value: "30d", label: "last 30 days" },
];

/** The delivery log's filters; the log sits below the webhooks, so every URL lands on it. */
export function AttemptFilters({ values, webhooks, eventTypes }: Props) {
  return (
    <FilterForm path="/mail/webhooks" hash="#deliveries">
      <FilterSelect
        id="d-webhook"
        name="webhook"
        label="Webhook"
        value={values.webhook}
        anyLabel="every webhook"
        options={webhooks.map((w) => ({ value: w.id, label: w.url }))}
        className="w-72"
      />
      <FilterSelect id="d-outcome" name="outcome" label="Outcome" value={values.outcome} anyLabel="any outcome" options={outcomes} className="w-36" />
      <FilterSelect id="d-type" name="type" label="Event type" value={values.type} anyLabel="any event type" options={eventTypes} className="w-56" />
      <FilterSelect id="d-window" name="window" label="Time window" value={values.window} anyLabel="all time" options={windows} className="w-36" />
      <FilterButtons />
    </FilterForm>
  );
}
