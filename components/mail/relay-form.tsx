"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";

type Security = "starttls" | "tls" | "none";
type Relay = { host: string; port: number; security: Security; username: string | null; hasPassword: boolean; updatedAt: string };
type RelayInput = { host: string; port: number; security: Security; username?: string; password?: string; clearPassword?: boolean };

type Props = {
  current: Relay | null;
  saveAction: (input: RelayInput) => Promise<ActionResult<unknown>>;
  removeAction: (input: Record<string, never>) => Promise<ActionResult<unknown>>;
};

const defaultPort: Record<Security, number> = { starttls: 587, tls: 465, none: 25 };

const FIELDS = ["host", "port", "security", "username", "password"] as const;

export function RelayForm({ current, saveAction, removeAction }: Props) {
  const router = useRouter();
  const [security, setSecurity] = React.useState<Security>(current?.security ?? "starttls");
  const [port, setPort] = React.useState(String(current?.port ?? 587));
  const { errors, submit, pending } = useActionForm(FIELDS);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input: RelayInput = {
      host: String(form.get("host") ?? "").trim(),
      // Empty is "fill this in" (a number box's NaN), not port 0.
      port: port.trim() ? Number(port) : Number.NaN,
      security,
      username: String(form.get("username") ?? "").trim() || undefined,
      password: String(form.get("password") ?? "") || undefined,
      clearPassword: form.get("clearPassword") === "on",
    };
    submit(
      () => saveAction(input),
      () => {
        toast.success("Relay saved");
        router.refresh();
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-[1fr_7rem]">
        <FormField id="relay-host" label="Host" error={errors.host} required>
          <Input name="host" defaultValue={current?.host} placeholder="smtp.example.com" required autoComplete="off" />
        </FormField>
        <FormField id="relay-port" label="Port" error={errors.port} required>
          <Input name="port" type="number" min={1} max={65535} value={port} onChange={(e) => setPort(e.target.value)} required />
        </FormField>
      </div>
      <FormField id="relay-security" label="TLS" error={errors.security} description="STARTTLS on 587 is what most providers expect; implicit TLS is port 465.">
        <NativeSelect
          name="security"
          value={security}
          onChange={(e) => {
            const next = e.target.value as Security;
            if (Number(port) === defaultPort[security]) setPort(String(defaultPort[next]));
            setSecurity(next);
          }}
        >
          <option value="starttls">STARTTLS (required)</option>
          <option value="tls">TLS (implicit)</option>
          <option value="none">None (upgrades if offered; local relays only)</option>
        </NativeSelect>
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="relay-username" label="User" error={errors.username}>
          <Input name="username" defaultValue={current?.username ?? ""} autoComplete="off" />
        </FormField>
        <FormField
          id="relay-password"
          label="Password"
          error={errors.password}
          description={current?.hasPassword ? "Stored encrypted. Leave blank to keep it." : "Stored encrypted; never shown again."}
        >
          <Input name="password" type="password" autoComplete="new-password" placeholder={current?.hasPassword ? "••••••••" : ""} />
        </FormField>
      </div>
      {current?.hasPassword && (
        <FormField id="relay-clear-password" label="Remove the stored password" inline>
          <Checkbox name="clearPassword" />
        </FormField>
      )}
      <FormAlert>{errors.form}</FormAlert>
      <div className="flex items-center gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save relay"}
        </Button>
        {current && (
          <ConfirmDialog
            trigger={
              <Button type="button" variant="ghost" className="text-destructive hover:text-destructive">
                Remove relay
              </Button>
            }
            title="Remove this relay?"
            description="Mail to outside addresses then uses SMTP_RELAY_URL if the operator set it, or cannot be sent."
            actionLabel="Remove relay"
            onConfirm={async () => {
              const res = await removeAction({});
              if (!res.ok) throw new Error(res.error);
              toast.success("Relay removed");
              router.refresh();
            }}
          />
        )}
      </div>
    </form>
  );
}
