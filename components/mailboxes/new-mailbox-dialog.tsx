"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Plus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";

type CreateInput = { username: string; domain: string; displayName?: string };
type Props = {
  /** MAIL_DOMAIN first, then the project's verified domains: the only ones a mailbox can live on. */
  domains: string[];
  createAction: (input: CreateInput) => Promise<ActionResult<{ id: string; address: string }>>;
};

const FIELDS = ["username", "domain", "displayName"] as const;

/** Username, domain and display name; a field error stays under its field, anything else under the form. */
export function NewMailboxDialog({ domains, createAction }: Props) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const { errors, setErrors, submit, pending } = useActionForm(FIELDS);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      username: String(form.get("username") ?? "").trim(),
      domain: String(form.get("domain") ?? ""),
      displayName: String(form.get("displayName") ?? "").trim() || undefined,
    };
    submit(
      () => createAction(input),
      (created) => {
        setOpen(false);
        toast.success(`${created.address} created`);
        router.push(`/mail/${created.id}`);
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setErrors({});
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus aria-hidden />
          New mailbox
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>New mailbox</DialogTitle>
            <DialogDescription>An address agents can read and send from. Custom domains appear here once verified.</DialogDescription>
          </DialogHeader>
          <FormField id="mailbox-username" label="Username" error={errors.username} description="Before the @: a-z, 0-9, '.', '_' and '-'">
            <Input name="username" required autoComplete="off" spellCheck={false} placeholder="support" />
          </FormField>
          <FormField id="mailbox-domain" label="Domain" error={errors.domain}>
            <NativeSelect name="domain" defaultValue={domains[0]}>
              {domains.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField
            id="mailbox-display-name"
            label="Display name"
            error={errors.displayName}
            description="Shown beside the address in mail it sends (optional)"
          >
            <Input name="displayName" autoComplete="off" placeholder="Acme Support" />
          </FormField>
          <FormAlert>{errors.form}</FormAlert>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending ? "Creating…" : "Create mailbox"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
