"use client";

import * as React from "react";
import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { setupAction, type SetupState } from "./actions";

export function SetupForm({ token }: { token: string }) {
  const [state, action, pending] = React.useActionState<SetupState, FormData>(setupAction, {});
  const fe = state.fieldErrors ?? {};
  // Held in memory only between the submit and the sign-in just after it.
  const password = React.useRef("");

  // Setup done: sign in with the credentials just chosen (a session row like any sign-in), then the dashboard.
  // Should that fail, the sign-in page says the account is ready.
  React.useEffect(() => {
    if (!state.done || !state.values) return;
    const email = state.values.email;
    void signIn("credentials", { email, password: password.current, redirect: false }).then((res) => {
      password.current = "";
      window.location.assign(res?.ok ? "/" : "/login?setup=done");
    });
  }, [state]);

  return (
    <form
      action={action}
      noValidate
      onSubmit={(e) => void (password.current = String(new FormData(e.currentTarget).get("password") ?? ""))}
      className="grid gap-4"
    >
      <input type="hidden" name="token" value={token} />
      <FormField id="email" label="Email" error={fe.email}>
        <Input name="email" type="email" autoComplete="username" required autoFocus defaultValue={state.values?.email} />
      </FormField>
      <FormField id="password" label="Password" description="At least 10 characters." error={fe.password}>
        <Input name="password" type="password" autoComplete="new-password" required minLength={10} />
      </FormField>
      <FormField id="projectName" label="Project name" description="You can add more projects later." error={fe.projectName}>
        <Input name="projectName" required maxLength={100} defaultValue={state.values?.projectName ?? "My project"} />
      </FormField>
      {state.error && (
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {state.error}
        </p>
      )}
      <Button type="submit" disabled={pending || state.done} className="w-full">
        {state.done ? "Signing in…" : pending ? "Creating…" : "Create owner account"}
      </Button>
    </form>
  );
}
