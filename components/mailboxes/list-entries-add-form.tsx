"use client";

import type * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";
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
  const { errors, setErrors, submit, pending } = useActionForm(["entry", "type", "reason"]);

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
    submit(
      () => addAction(input),
      (added) => {
        // Already listed: nothing was added, so the entry says why, where the owner typed it.
        if (!added.created) return void setErrors({ entry: `${added.entry} is on the ${added.type} list already.` });
        form.reset();
        toast.success(`${added.entry} added to the ${added.type} list`);
        router.refresh();
      },
    );
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
