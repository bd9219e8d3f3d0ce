"use client";

import * as React from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { FormAlert } from "@/components/ui/form-alert";
import type { ActionResult } from "@/lib/auth/owner-action";
import { plural } from "@/lib/utils";

type DeleteProjectDialogProps = {
  project: { id: string; name: string };
  footprint: { keys: number; mailboxes: number; events: number };
  /** The owner's last project cannot go: the dashboard always shows one. */
  onlyProject: boolean;
  deleteAction: (input: { projectId: string; confirmName: string }) => Promise<ActionResult<{ id: string; name: string }>>;
};

/** Delete is confirmed by typing the project's name, and the dialog says what goes with it. */
export function DeleteProjectDialog({ project, footprint, onlyProject, deleteAction }: DeleteProjectDialogProps) {
  const [open, setOpen] = React.useState(false);
  const [typed, setTyped] = React.useState("");
  const [errors, setErrors] = React.useState<{ confirmName?: string; form?: string }>({});
  const [pending, startTransition] = React.useTransition();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setTyped("");
      setErrors({});
    }
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(async () => {
      const res = await deleteAction({ projectId: project.id, confirmName: typed });
      if (!res.ok) {
        const fe = res.fieldErrors ?? {};
        return void setErrors({ confirmName: fe.confirmName, form: fe.confirmName ? undefined : res.error });
      }
      toast.success(`Project “${res.data.name}” deleted`);
      // A full load: every screen of the deleted project is gone, and the layout picks the next project.
      window.location.assign("/");
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="destructive" disabled={onlyProject}>
          Delete project…
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Delete {project.name}?</DialogTitle>
            <DialogDescription>This cannot be undone. Everything in the project goes with it:</DialogDescription>
          </DialogHeader>
          <ul className="list-disc pl-5 text-sm text-muted-foreground">
            <li>{plural(footprint.keys, "API key")} (agents using them are refused at once) and its connected apps</li>
            <li>{plural(footprint.mailboxes, "mailbox", "mailboxes")} with all their mail, drafts and attachments</li>
            <li>{plural(footprint.events, "event")}, the sources, channels, policy, approvals and the disk</li>
            <li>the project's ledger</li>
          </ul>
          <FormField id="delete-confirm" label={`Type ${project.name} to confirm`} error={errors.confirmName}>
            <Input name="confirmName" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
          </FormField>
          <FormAlert>{errors.form}</FormAlert>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={pending || typed.trim() !== project.name}>
              {pending ? "Deleting…" : "Delete project"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
