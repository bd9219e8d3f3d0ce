"use client";

import * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Plus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { Action, AddedChannel } from "@/components/channels/types";

type Props = {
  telegramReady: boolean;
  /** A relay (the project's or SMTP_RELAY_URL) reaches addresses outside this instance; without one only local ones work. */
  relayReady: boolean;
  addEmailAction: Action<{ address: string; label?: string }, AddedChannel>;
  addTelegramAction: Action<{ label?: string }, AddedChannel>;
};

/** Adds an email channel (a verification link is sent) or a Telegram channel (a t.me link to open). */
export function AddChannelDialog({ telegramReady, relayReady, addEmailAction, addTelegramAction }: Props) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [kind, setKind] = React.useState<"email" | "telegram">("email");
  const [error, setError] = React.useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = React.useState<{ address?: string; label?: string }>({});
  const [added, setAdded] = React.useState<AddedChannel | null>(null);
  const [pending, startTransition] = React.useTransition();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setAdded(null);
      setError(null);
      setFieldErrors({});
    }
  }
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const label = String(form.get("label") ?? "").trim() || undefined;
    startTransition(async () => {
      const res = kind === "email" ? await addEmailAction({ address: String(form.get("address") ?? ""), label }) : await addTelegramAction({ label });
      if (!res.ok) {
        // On its field when the server names one (a bad or duplicate address, a long label); else below the form.
        const fe = { address: res.fieldErrors?.address, label: res.fieldErrors?.label };
        setFieldErrors(fe);
        return void setError(fe.address || fe.label ? null : res.error);
      }
      setError(null);
      setFieldErrors({});
      setAdded(res.data);
      toast.success(`Channel “${res.data.label}” added`);
      router.refresh();
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus />
          Add channel
        </Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)]">
        {added ? (
          <>
            <DialogHeader>
              <DialogTitle>Channel “{added.label}” added</DialogTitle>
              <DialogDescription>
                {added.link
                  ? "Open this link in Telegram on the phone that should receive requests, and press Start. It works once, for 24 hours."
                  : `A verification link was sent to ${added.address}. Once it is opened and confirmed, the channel is active.`}
              </DialogDescription>
            </DialogHeader>
            {added.link && (
              <div className="flex items-center gap-2 rounded-md border bg-muted/40 p-2">
                <code className="min-w-0 flex-1 truncate text-xs">{added.link}</code>
                <CopyButton value={added.link} label="Copy link" size="icon-xs" />
              </div>
            )}
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Add a channel</DialogTitle>
              <DialogDescription>People on active channels receive requests and can decide them.</DialogDescription>
            </DialogHeader>
            <FormField id="channel-kind" label="Kind">
              <NativeSelect value={kind} onChange={(e) => setKind(e.target.value as "email" | "telegram")}>
                <option value="email">Email</option>
                <option value="telegram" disabled={!telegramReady}>
                  Telegram{telegramReady ? "" : " (set the bot token first)"}
                </option>
              </NativeSelect>
            </FormField>
            {kind === "email" && (
              <FormField
                id="channel-address"
                label="Email address"
                required
                description={relayReady ? undefined : "No mail relay is set yet, so only addresses on this instance can be reached."}
                error={fieldErrors.address}
              >
                <Input name="address" type="email" required maxLength={254} autoComplete="off" placeholder="mario@example.com" />
              </FormField>
            )}
            <FormField id="channel-label" label="Label" description="Short name shown on decisions, e.g. mario." error={fieldErrors.label}>
              <Input name="label" maxLength={40} autoComplete="off" placeholder={kind} />
            </FormField>
            {error && (
              <p role="alert" className="text-sm text-destructive">
                {error}
                {kind === "email" && !relayReady && (
                  <>
                    {" "}
                    <Link href="/mail/settings" className="font-medium underline underline-offset-4">
                      Set up a relay in Mail settings
                    </Link>
                    .
                  </>
                )}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Adding…" : "Add channel"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
