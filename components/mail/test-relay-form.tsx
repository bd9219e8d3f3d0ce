"use client";

import * as React from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  defaultTo: string;
  disabled: boolean;
  testAction: (input: { to: string }) => Promise<ActionResult<{ response: string; origin: "project" | "env" }>>;
};

export function TestRelayForm({ defaultTo, disabled, testAction }: Props) {
  const [result, setResult] = React.useState<{ ok: boolean; text: string } | null>(null);
  const [toError, setToError] = React.useState<string | undefined>();
  const [pending, startTransition] = React.useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const to = String(new FormData(event.currentTarget).get("to") ?? "").trim();
    startTransition(async () => {
      const res = await testAction({ to });
      // A bad address is the field's; the relay's refusal is the result's.
      setToError(res.ok ? undefined : res.fieldErrors?.to);
      if (!res.ok && res.fieldErrors?.to) return void setResult(null);
      if (!res.ok) {
        setResult({ ok: false, text: res.error });
        return void toast.error("The test message was not accepted");
      }
      setResult({ ok: true, text: `Accepted by the relay: ${res.data.response}` });
      toast.success(`Test message sent to ${to}`);
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-3">
      <FormField id="test-to" label="Send to" error={toError}>
        <Input name="to" type="email" defaultValue={defaultTo} required />
      </FormField>
      <div>
        <Button type="submit" variant="secondary" disabled={pending || disabled}>
          {pending ? "Sending…" : "Send test message"}
        </Button>
      </div>
      {result && (
        <p role="status" className={result.ok ? "text-sm text-success" : "text-sm text-destructive"}>
          {result.text}
        </p>
      )}
    </form>
  );
}
