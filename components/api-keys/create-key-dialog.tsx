"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Plus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { FormAlert } from "@/components/ui/form-alert";
import { ScopePicker } from "@/components/api-keys/scope-picker";
import { KeySecret } from "@/components/api-keys/key-secret";
import type { ActionResult } from "@/lib/auth/owner-action";
import { plural } from "@/lib/utils";

type Created = { name: string; secret: string };
/** A live mailbox the key may be restricted to. */
export type MailboxChoice = { id: string; address: string; displayName: string | null };
type CreateKeyDialogProps = {
  publicUrl: string;
  defaultOpen?: boolean;
  mailboxes: MailboxChoice[];
  /** The project has more mailboxes than `mailboxes` lists: the owner may type another's address. */
  moreMailboxes?: boolean;
  createAction: (input: { name: string; scopes: string[]; mailbox_id: string | null }) => Promise<ActionResult<Created>>;
};

/** The picker's choice that shows the address field. */
const OTHER_MAILBOX = "other";

export function CreateKeyDialog({ publicUrl, defaultOpen, mailboxes, moreMailboxes, createAction }: CreateKeyDialogProps) {
  const router = useRouter();
  const [open, setOpen] = React.useState(Boolean(defaultOpen));
  const [scopes, setScopes] = React.useState<Set<string>>(new Set());
  const [errors, setErrors] = React.useState<{ form?: string; name?: string; scopes?: string; mailbox?: string }>({});
  const [created, setCreated] = React.useState<Created | null>(null);
  const [pending, startTransition] = React.useTransition();
  const [typed, setTyped] = React.useState(false);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) return;
    // The secret is gone once the dialog closes: it was never stored.
    setCreated(null);
    setScopes(new Set());
    setErrors({});
    setTyped(false);
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "");
    // "" is the "All mailboxes" option: no restriction. A typed address is resolved by the server.
    const chosen = String(form.get("mailbox_id") ?? "");
    const mailboxId = (chosen === OTHER_MAILBOX ? String(form.get("mailbox_address") ?? "").trim() : chosen) || null;
    startTransition(async () => {
      const res = await createAction({ name, scopes: [...scopes], mailbox_id: mailboxId });
      if (!res.ok) {
        const fe = res.fieldErrors ?? {};
        const named = fe.name || fe.scopes || fe.mailbox_id;
        return void setErrors({ form: named ? undefined : res.error, name: fe.name, scopes: fe.scopes, mailbox: fe.mailbox_id });
      }
      setErrors({});
      setCreated(res.data);
      toast.success(`Key “${res.data.name}” created`);
      router.refresh();
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus />
          Create API key
        </Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)] sm:max-w-2xl">
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>Key “{created.name}” created</DialogTitle>
              <DialogDescription>Copy it now: Brynth keeps only a hash and cannot show it again.</DialogDescription>
            </DialogHeader>
            <KeySecret secret={created.secret} publicUrl={publicUrl} />
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-5">
            <DialogHeader>
              <DialogTitle>Create API key</DialogTitle>
              <DialogDescription>Give each agent its own key with only the scopes it needs. The ledger records which key made every call.</DialogDescription>
            </DialogHeader>
            <FormField id="key-name" label="Name" description="E.g. the agent or machine that will use it." error={errors.name}>
              <Input name="name" required maxLength={100} autoComplete="off" autoFocus placeholder="claude-code on laptop" />
            </FormField>
            <FormField
              id="key-mailbox"
              label="Restrict to mailbox"
              description="A restricted key's mailbox tools see only that mailbox; it may not create or delete mailboxes or use the global lists. email_send always sends from the project address."
              error={errors.mailbox}
            >
              <NativeSelect name="mailbox_id" defaultValue="" onChange={(e) => setTyped(e.currentTarget.value === OTHER_MAILBOX)}>
                <option value="">All mailboxes</option>
                {mailboxes.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.displayName ? `${m.address} (${m.displayName})` : m.address}
                  </option>
                ))}
                {moreMailboxes && <option value={OTHER_MAILBOX}>Another mailbox: type its address…</option>}
              </NativeSelect>
            </FormField>
            {typed && (
              <FormField id="key-mailbox-address" label="Mailbox address" description={`The list shows the first ${mailboxes.length}.`}>
                <Input name="mailbox_address" type="email" required autoComplete="off" spellCheck={false} placeholder="support@example.com" />
              </FormField>
            )}
            <fieldset
              aria-labelledby="key-scopes-label"
              aria-describedby={errors.scopes ? "key-scopes-error" : undefined}
              className="m-0 grid min-w-0 gap-2 border-0 p-0"
            >
              <div id="key-scopes-label" className={errors.scopes ? "text-sm font-medium text-destructive" : "text-sm font-medium"}>
                Scopes
              </div>
              {errors.scopes && <FieldError id="key-scopes-error">{errors.scopes}</FieldError>}
              <ScopePicker selected={scopes} onChange={setScopes} />
            </fieldset>
            <FormAlert>{errors.form}</FormAlert>
            <DialogFooter className="sticky -bottom-6 -mx-6 -mb-6 border-t bg-background px-6 py-4">
              <span className="mr-auto self-center text-xs text-muted-foreground tabular-nums">{plural(scopes.size, "scope")} selected</span>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Creating…" : "Create key"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
