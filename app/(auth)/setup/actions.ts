"use server";

import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { completeSetup } from "@/lib/owners/complete-setup";
import { appErrorFieldErrors } from "@/lib/forms/plain-issue";

export type SetupState = {
  error?: string;
  fieldErrors?: Record<string, string>;
  values?: { email: string; projectName: string };
  /** The owner exists: the form signs in with what was just typed, so there is no second login. */
  done?: boolean;
};

/**
 * The one server action that runs without an owner (there is none yet): the one-time token is its authority, and
 * completeSetup consumes it in the same transaction that creates the owner.
 */
export async function setupAction(_prev: SetupState, form: FormData): Promise<SetupState> {
  // The form always posts FormData; a hand-made call may send anything, which is the form's error, not a 500.
  if (!(form instanceof FormData)) return { error: "Send the setup form." };
  const input = {
    token: String(form.get("token") ?? ""),
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
    projectName: String(form.get("projectName") ?? ""),
  };
  const values = { email: input.email, projectName: input.projectName };
  try {
    await completeSetup(await getDb(), input);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const fieldErrors = err.code === "validation_error" ? appErrorFieldErrors(err) : {};
    // The token is a hidden field: its error is the form's.
    return { error: fieldErrors.token ?? (Object.keys(fieldErrors).length ? undefined : err.message), fieldErrors, values };
  }
  return { done: true, values };
}
