"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/auth/owner-action";

type RenameProjectFormProps = {
  name: string;
  renameAction: (input: { name: string }) => Promise<ActionResult<{ name: string }>>;
};

/** Settings → Project: the name agents see in whoami and the owner sees in the switcher. */
export function RenameProjectForm({ name, renameAction }: RenameProjectFormProps) {
  const router = useRouter();
  const [error, setError] = React.useState<string | undefined>();
  const [pending, startTransition] = React.useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget).get("name") ?? "");
    startTransition(async () => {
      const res = await renameAction({ name: next });
      if (!res.ok) return void setError(res.fieldErrors?.name ?? res.error);
      setError(undefined);
      toast.success(`Project renamed to “${res.data.name}”`);
      router.refresh();
    });
  }

  // noValidate: the server's words, on the field, rather than the browser's bubble (one error style everywhere).
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <FormField id="project-name" label="Project name" error={error} className="min-w-0 flex-1">
        <Input name="name" defaultValue={name} required maxLength={100} autoComplete="off" />
      </FormField>
      <Button type="submit" variant="outline" disabled={pending} className={error ? "sm:mb-6" : undefined}>
        {pending ? "Saving…" : "Rename"}
      </Button>
    </form>
  );
}
