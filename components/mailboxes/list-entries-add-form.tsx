"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { type FormErrors, formErrors } from "@/lib/forms/form-errors";
import type { ListDirectionView } from "@/components/mailboxes/list-entries-search";

type Props = {
  direction: ListDirectionView;
  inboxId?: string;
  addAction: (input: {
    inboxId?: string;
    direction: ListDirectionView;
    type: "allow" | "block";
    entry: string;
    reason?: string;
  }) => Promise<ActionResult<{ entry: string; type: string; created: boolean }>>;
};

/** Adds an address or domain to this scope's allow or block list for the current direction. */
export function ListEntriesAddForm({ direction, inboxId, addAction }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();
  const [errors, setErrors] = React.useState<FormErrors<"entry" | "type" | "reason">>({});

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const reason = String(data.get("reason") ?? "").trim();
    const input = {
      inboxId,
      direction,
      type: data.get("type") === "allow" ? ("allow" as const) : ("block" as const),
      entry: String(data.get("entry") ?? ""),
      reason: reason || undefined,
    };
    startTransition(async () => {
      const res = await addAction(input);
      if (!res.ok) return void setErrors(formErrors(res, ["entry", "type", "reason"]));
      // Already listed: nothing was added, so the entry says why, where the owner typed it.
      if (!res.data.created) return void setErrors({ entry: `${res.data.entry} is on the ${res.data.type} list already.` });
      setErrors({});
      form.reset();
      toast.success(`${res.data.entry} added to the ${res.data.type} list`);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-3 rounded-lg border p-3" aria-label="Add a list entry">
      <FormField id="le-entry" label="Entry" error={errors.entry} className="w-72">
        <Input name="entry" required placeholder="bob@example.com or example.com" autoComplete="off" spellCheck={false} />
      </FormField>
      <FormField id="le-type" label="List" error={errors.type} className="w-32">
        <NativeSelect name="type" defaultValue="block">
          <option value="block">Block</option>
          <option value="allow">Allow</option>
        </NativeSelect>
      </FormField>
      <FormField id="le-reason" label="Reason" error={errors.reason} className="min-w-64 flex-1">
        <Input name="reason" maxLength={500} placeholder="optional: why, for whoever reads the list later" />
      </FormField>
      <Button type="submit" size="sm" className="mt-[1.375rem]" disabled={pending}>
        {pending ? "Adding…" : "Add entry"}
      </Button>
      {errors.form && (
        <div className="basis-full">
          <FormAlert>{errors.form}</FormAlert>
        </div>
      )}
    </form>
  );
}
