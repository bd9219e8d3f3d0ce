"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { X } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";

export type UpdateHeaders = (input: {
  webhookId: string;
  headers: Record<string, string>;
  removeHeaders: string[];
}) => Promise<ActionResult<{ names: string[] }>>;

type Props = { webhookId: string; url: string; names: string[]; updateAction: UpdateHeaders; trigger: React.ReactElement };

/**
 * Custom headers sent with every delivery. Values are secrets (an auth token, usually): the screen only ever has
 * their names, shown with a masked value; to change a value, add the header again.
 */
export function WebhookHeadersDialog({ webhookId, url, names, updateAction, trigger }: Props) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [name, setName] = React.useState("");
  const [value, setValue] = React.useState("");
  // A header's problem on its Name or Value box (a full set of headers reads as the name's); others below the form.
  const { errors, setErrors, submit, pending } = useActionForm({ name: "name", value: "value", headers: "name" });

  function save(headers: Record<string, string>, removeHeaders: string[], done: string) {
    submit(
      () => updateAction({ webhookId, headers, removeHeaders }),
      () => {
        setName("");
        setValue("");
        toast.success(done);
        router.refresh();
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setErrors({});
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)] sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Custom headers</DialogTitle>
          <DialogDescription className="break-all">
            Sent with every delivery to <span className="font-mono">{url}</span>, before the signature headers (which they cannot replace).
          </DialogDescription>
        </DialogHeader>
        {names.length === 0 ? (
          <p className="text-sm text-muted-foreground">No custom headers yet.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Custom headers">
            {names.map((n) => (
              <li key={n} className="flex items-center gap-3 px-3 py-1.5 text-sm">
                <span className="font-mono text-xs">{n}</span>
                <span className="text-muted-foreground" title="Values are kept encrypted and not shown">
                  ••••
                </span>
                <Button
                  variant="ghost"
                  size="icon-xs"
                  className="ml-auto"
                  aria-label={`Remove header ${n}`}
                  disabled={pending}
                  onClick={() => save({}, [n], `Header ${n} removed`)}
                >
                  <X aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form
          noValidate
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            save({ [name.trim()]: value }, [], `Header ${name.trim()} saved`);
          }}
        >
          <div className="grid grid-cols-2 gap-3">
            <FormField id={`hdr-name-${webhookId}`} label="Header name" error={errors.name}>
              <Input
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                maxLength={100}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
              />
            </FormField>
            <FormField id={`hdr-value-${webhookId}`} label="Header value" error={errors.value}>
              <Input
                type="password"
                value={value}
                onChange={(e) => setValue(e.target.value)}
                required
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
              />
            </FormField>
          </div>
          <FormAlert>{errors.form}</FormAlert>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Close
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Add header"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
