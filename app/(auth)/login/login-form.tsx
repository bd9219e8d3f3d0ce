"use client";

import * as React from "react";
import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

/** next-auth's own error names, in words. Anything else (e.g. the throttle's message) is shown as it is. */
const messages: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  CallbackRouteError: "Sign-in failed. Try again.",
};

export function LoginForm({ next = "/" }: { next?: string }) {
  const [error, setError] = React.useState<string | null>(null);
  const [pending, setPending] = React.useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const res = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
      if (res?.ok && !res.error) {
        // A full load, so the dashboard's server components see the new cookie.
        window.location.assign(next);
        return;
      }
      setError(messages[res?.error ?? ""] ?? res?.error ?? "Sign-in failed. Try again.");
    } catch {
      setError("Brynth could not be reached. Check that the server is running.");
    }
    setPending(false);
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <FormField id="email" label="Email">
        <Input name="email" type="email" autoComplete="username" required autoFocus />
      </FormField>
      <FormField id="password" label="Password">
        <Input name="password" type="password" autoComplete="current-password" required />
      </FormField>
      {error && (
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
