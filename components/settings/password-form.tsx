"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";
import { plural } from "@/lib/utils";

type Fields = { current: string; next: string; confirm: string };
type PasswordFormProps = { changeAction: (input: Fields) => Promise<ActionResult<{ endedSessions: number }>> };

/** Settings → Password. Every other browser signed in as this owner is signed out by the change. */
export function PasswordForm({ changeAction }: PasswordFormProps) {
  const router = useRouter();
  const formRef = React.useRef<HTMLFormElement>(null);
  const { errors, submit, pending } = useActionForm(["current", "next", "confirm"]);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { current: String(form.get("current") ?? ""), next: String(form.get("next") ?? ""), confirm: String(form.get("confirm") ?? "") };
    submit(
      () => changeAction(input),
      ({ endedSessions: ended }) => {
        formRef.current?.reset();
        toast.success(ended ? `Password changed; ${plural(ended, "other session")} signed out` : "Password changed");
        router.refresh();
      },
    );
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="grid max-w-md gap-4">
      {/* For password managers: the account the new password belongs to is the signed-in owner. */}
      <FormField id="password-current" label="Current password" error={errors.current}>
        <Input name="current" type="password" autoComplete="current-password" required />
      </FormField>
      <FormField id="password-next" label="New password" description="At least 10 characters." error={errors.next}>
        <Input name="next" type="password" autoComplete="new-password" required minLength={10} maxLength={1000} />
      </FormField>
      <FormField id="password-confirm" label="New password again" error={errors.confirm}>
        <Input name="confirm" type="password" autoComplete="new-password" required />
      </FormField>
      <FormAlert>{errors.form}</FormAlert>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}
