"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useActionForm } from "@/lib/forms/use-action-form";

type Options<F extends string> = {
  /** The form's fields, or the server's names mapped onto them (see formErrors). */
  fields: readonly F[] | Readonly<Record<string, F>>;
  /** Puts the form's own state back (typed values, choices) when the dialog closes. */
  onReset?: () => void;
};

/**
 * The state every create dialog repeats: open, the result it shows once (a secret, a URL), and useActionForm's errors
 * and submit. Closing clears it all, and refreshes the list behind when something was created: refreshing at
 * once would unmount a dialog rendered by an empty state, and with it what is shown only once.
 */
export function useDialogForm<F extends string, C = never>({ fields, onReset }: Options<F>) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [created, setCreated] = React.useState<C | null>(null);
  const { errors, setErrors, submit, pending } = useActionForm(fields);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) return;
    if (created !== null) router.refresh();
    setCreated(null);
    setErrors({});
    onReset?.();
  }

  return { open, onOpenChange, close: () => onOpenChange(false), created, setCreated, errors, setErrors, submit, pending };
}
