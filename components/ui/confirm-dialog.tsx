"use client";

import * as React from "react";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { namesText } from "@/lib/text/reveal-invisible";

type ConfirmDialogProps = {
  /** The element that opens the dialog (rendered asChild), usually a Button. */
  trigger: React.ReactNode;
  title: React.ReactNode;
  description?: React.ReactNode;
  /** When set, the owner must type this exact text (the object's name) before the action enables. */
  confirmText?: string;
  actionLabel?: string;
  destructive?: boolean;
  /** Awaited with the dialog open and the button pending; the dialog closes when it resolves. */
  onConfirm: () => unknown;
};

function ConfirmDialog({
  trigger,
  title,
  description,
  confirmText,
  actionLabel = "Delete",
  destructive = true,
  onConfirm,
}: ConfirmDialogProps) {
  const [open, setOpen] = React.useState(false);
  const [typed, setTyped] = React.useState("");
  const [pending, startTransition] = React.useTransition();
  const inputId = React.useId();
  // A name holding invisible characters is shown with them written out, and may be typed as shown.
  const armed = confirmText === undefined || namesText(typed, confirmText);

  function onOpenChange(next: boolean) {
    if (pending) return;
    setOpen(next);
    if (!next) setTyped("");
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!armed || pending) return;
    startTransition(async () => {
      try {
        await onConfirm();
        setOpen(false);
        setTyped("");
      } catch (error) {
        toast.error(error instanceof Error ? error.message : "Something went wrong");
      }
    });
  }

  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>{title}</AlertDialogTitle>
            {description && <AlertDialogDescription>{description}</AlertDialogDescription>}
          </AlertDialogHeader>
          {confirmText !== undefined && (
            <div className="grid gap-2">
              <Label htmlFor={inputId} className="block leading-normal font-normal text-muted-foreground">
                Type <UntrustedText text={confirmText} className="font-mono font-medium text-foreground" /> to confirm
              </Label>
              <Input
                id={inputId}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                spellCheck={false}
                autoFocus
              />
            </div>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
            <Button type="submit" variant={destructive ? "destructive" : "default"} disabled={!armed || pending}>
              {pending ? "Working…" : actionLabel}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

export { ConfirmDialog, type ConfirmDialogProps };
