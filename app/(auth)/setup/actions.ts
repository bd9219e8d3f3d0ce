"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { completeSetup } from "@/lib/owners/complete-setup";

export type SetupState = {
  error?: string;
  fieldErrors?: Record<string, string>;
  values?: { email: string; projectName: string };
};

/**
 * The one server action that runs without an owner (there is none yet): the one-time token is its authority, and
 * completeSetup consumes it in the same transaction that creates the owner.
 */
export async function setupAction(_prev: SetupState, form: FormData): Promise<SetupState> {
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
    const details = err.code === "validation_error" ? (err.details as { field: string; message: string }[]) : [];
    const fieldErrors = Object.fromEntries(details.map((d) => [d.field, d.message]));
    return { error: details.length ? "Check the highlighted fields." : err.message, fieldErrors, values };
  }
  redirect("/login?setup=done");
}
