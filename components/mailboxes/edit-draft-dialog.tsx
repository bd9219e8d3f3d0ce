"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Pencil } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { RecipientChips } from "@/components/mailboxes/recipient-chips";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";

type Content = { to: string[]; cc: string[]; bcc: string[]; subject: string; text: string };
type Props = {
  draftId: string;
  /** The version `content` was read at: saving over an agent's later change is refused (CONFLICT), not done. */
  version: number;
  content: Content;
  updateAction: (input: { draftId: string; version: number } & Partial<Content>) => Promise<ActionResult<{ draftId: string; version: number }>>;
};

/** Edit a draft's recipients, subject and text (attachments stay); its schedule is kept. */
export function EditDraftDialog({ draftId, version, content, updateAction }: Props) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [v, setV] = React.useState(content);
  const [typing, setTyping] = React.useState<Record<string, string | null>>({});
  const { errors, setErrors, submit, pending } = useActionForm(["to", "cc", "bcc", "subject", "text"]);
  const set = (patch: Partial<Content>) => setV((x) => ({ ...x, ...patch }));

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setV(content);
        setErrors({});
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Pencil aria-hidden />
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <form
          aria-label="Edit draft"
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (Object.values(typing).some(Boolean)) return void setErrors({ form: "Fix the recipient marked in red first." });
            submit(
              () => updateAction({ draftId, version, ...v }),
              () => {
                toast.success("Draft saved");
                setOpen(false);
                router.refresh();
              },
            );
          }}
        >
          <DialogHeader>
            <DialogTitle>Edit draft</DialogTitle>
          </DialogHeader>
          {(["to", "cc", "bcc"] as const).map((f) => (
            <RecipientChips
              key={f}
              id={`edit-${f}`}
              label={f === "to" ? "To" : f === "cc" ? "Cc" : "Bcc"}
              values={v[f]}
              onChange={(list) => set({ [f]: list })}
              error={errors[f]}
              onPendingProblem={(p) => setTyping((t) => ({ ...t, [f]: p }))}
            />
          ))}
          <FormField id="edit-subject" label="Subject" error={errors.subject}>
            <Input value={v.subject} onChange={(e) => set({ subject: e.target.value })} autoComplete="off" />
          </FormField>
          <FormField id="edit-text" label="Message" error={errors.text}>
            <Textarea value={v.text} onChange={(e) => set({ text: e.target.value })} rows={8} />
          </FormField>
          <FormAlert>{errors.form}</FormAlert>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              Save draft
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
