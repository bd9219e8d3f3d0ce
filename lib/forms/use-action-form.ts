"use client";

import * as React from "react";
import type { ActionResult } from "@/lib/auth/owner-action";
import { type FormErrors, formErrors } from "@/lib/forms/form-errors";

/**
 * What every form that calls an owner action repeats: errors by field and a pending submit. `submit` runs the
 * action; a failure lands on the fields it names (formErrors; FieldError brings the first into view), anything else
 * in the form's one line (FormAlert), and a success clears them and goes on with the result.
 */
export function useActionForm<F extends string>(fields: readonly F[] | Readonly<Record<string, F>>) {
  const [errors, setErrors] = React.useState<FormErrors<F>>({});
  const [pending, startTransition] = React.useTransition();

  function submit<T>(run: () => Promise<ActionResult<T>>, then: (data: T) => void) {
    startTransition(async () => {
      const res = await run();
      if (!res.ok) return void setErrors(formErrors(res, fields));
      setErrors({});
      then(res.data);
    });
  }

  return { errors, setErrors, submit, pending };
}
