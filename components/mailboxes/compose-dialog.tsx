"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Forward, PenSquare, Reply, ReplyAll } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { ComposeAttachments, type ComposeFile, type UploadActions } from "@/components/mailboxes/compose-attachments";
import { RecipientChips } from "@/components/mailboxes/recipient-chips";
import type { ActionResult } from "@/lib/auth/owner-action";
import { type FormErrors, formErrors } from "@/lib/forms/form-errors";
// Types only: the form sends exactly what the owner-side compose takes.
import type { ComposeMode, OwnerComposeInput as ComposeInput } from "@/lib/mail/drafts/owner-compose";

export type ComposeActions = UploadActions & {
  sendAction: (input: ComposeInput) => Promise<ActionResult<{ draftId: string | null; messageId: string | null }>>;
  draftAction: (input: ComposeInput & { sendAt: string | null }) => Promise<ActionResult<{ draftId: string; sendAt: string | null }>>;
};
/** What the form starts with: a reply's recipients and `Re:` subject, a forward's `Fwd:` subject. */
export type ComposePrefill = { messageId?: string; to?: string[]; cc?: string[]; subject?: string };

const FIX_RECIPIENT = "Fix the recipient marked in red first.";
const TITLES: Record<ComposeMode, string> = { new: "New message", reply: "Reply", reply_all: "Reply all", forward: "Forward" };
const ICONS = { new: PenSquare, reply: Reply, reply_all: ReplyAll, forward: Forward };

/** Field errors come as `to.2`, `subject`… (a send list names the recipient's field); others stay under the form. */
const FIELDS = ["to", "cc", "bcc", "subject", "text", "sendAt"] as const;

/**
 * Compose, Reply, Reply all and Forward from the mailbox client: recipient chips checked as typed, subject, text,
 * attachments uploaded with progress, then Send, Save draft or Schedule… (a time, up to 90 days ahead).
 */
export function ComposeDialog({
  inboxId,
  from,
  mode,
  prefill = {},
  actions,
}: {
  inboxId: string;
  from: string;
  mode: ComposeMode;
  prefill?: ComposePrefill;
  actions: ComposeActions;
}) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [to, setTo] = React.useState<string[]>(prefill.to ?? []);
  const [cc, setCc] = React.useState<string[]>(prefill.cc ?? []);
  const [bcc, setBcc] = React.useState<string[]>([]);
  const [subject, setSubject] = React.useState(prefill.subject ?? "");
  const [text, setText] = React.useState("");
  const [files, setFiles] = React.useState<ComposeFile[]>([]);
  const [scheduling, setScheduling] = React.useState(false);
  const [sendAt, setSendAt] = React.useState("");
  const [typing, setTyping] = React.useState<Record<string, string | null>>({});
  const [errors, setErrors] = React.useState<FormErrors<(typeof FIELDS)[number]>>({});
  const [pending, startTransition] = React.useTransition();
  const Icon = ICONS[mode];
  // The "fix the recipient" notice goes as soon as no recipient field holds a bad address any more.
  React.useEffect(() => {
    if (Object.values(typing).some(Boolean)) return;
    setErrors((e) => {
      if (e.form !== FIX_RECIPIENT) return e;
      const { form: _, ...rest } = e;
      return rest;
    });
  }, [typing]);

  function reset() {
    setTo(prefill.to ?? []);
    setCc(prefill.cc ?? []);
    setBcc([]);
    setSubject(prefill.subject ?? "");
    setText("");
    setFiles([]);
    setScheduling(false);
    setSendAt("");
    setTyping({});
    setErrors({});
  }

  function submit(kind: "send" | "draft" | "schedule") {
    if (Object.values(typing).some(Boolean)) return void setErrors({ form: FIX_RECIPIENT });
    if (files.some((f) => f.state === "uploading")) return void setErrors({ form: "Wait for the attachments to finish uploading." });
    if (files.some((f) => f.state === "failed")) return void setErrors({ form: "Remove the attachments that failed to upload." });
    if (kind === "schedule" && !sendAt) return void setErrors({ sendAt: "Pick when to send it." });
    const input: ComposeInput = { inboxId, mode, messageId: prefill.messageId, to, cc, bcc, subject, text, paths: files.map((f) => f.path) };
    startTransition(async () => {
      const res =
        kind === "send"
          ? await actions.sendAction(input)
          : await actions.draftAction({ ...input, sendAt: kind === "schedule" ? new Date(sendAt).toISOString() : null });
      if (!res.ok) return void setErrors(formErrors(res, FIELDS));
      toast.success(kind === "send" ? "Message sent" : kind === "schedule" ? `Scheduled for ${new Date(sendAt).toLocaleString()}` : "Draft saved");
      setOpen(false);
      reset();
      router.refresh();
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant={mode === "new" ? "default" : "outline"}>
          <Icon aria-hidden />
          {TITLES[mode]}
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <form
          aria-label={TITLES[mode]}
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit("send");
          }}
        >
          <DialogHeader>
            <DialogTitle>{TITLES[mode]}</DialogTitle>
            <DialogDescription>
              From <span className="font-mono">{from}</span>
              {mode === "forward" && ". The original message and its attachments are included below your text."}
            </DialogDescription>
          </DialogHeader>
          <RecipientChips
            id="compose-to"
            label="To"
            values={to}
            onChange={setTo}
            error={errors.to}
            onPendingProblem={(p) => setTyping((t) => ({ ...t, to: p }))}
          />
          <RecipientChips
            id="compose-cc"
            label="Cc"
            values={cc}
            onChange={setCc}
            error={errors.cc}
            onPendingProblem={(p) => setTyping((t) => ({ ...t, cc: p }))}
          />
          <RecipientChips
            id="compose-bcc"
            label="Bcc"
            values={bcc}
            onChange={setBcc}
            error={errors.bcc}
            onPendingProblem={(p) => setTyping((t) => ({ ...t, bcc: p }))}
          />
          <FormField id="compose-subject" label="Subject" error={errors.subject}>
            <Input value={subject} onChange={(e) => setSubject(e.target.value)} autoComplete="off" />
          </FormField>
          <FormField id="compose-text" label="Message" error={errors.text}>
            <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={8} />
          </FormField>
          <ComposeAttachments files={files} setFiles={setFiles} startAction={actions.startAction} completeAction={actions.completeAction} />
          {scheduling && (
            <FormField id="compose-send-at" label="Send at" error={errors.sendAt} description="Your local time; up to 90 days ahead.">
              <Input type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} />
            </FormField>
          )}
          <FormAlert>{errors.form}</FormAlert>
          <DialogFooter className="gap-2 sm:justify-between">
            <div className="flex gap-2">
              <Button type="button" variant="outline" disabled={pending} onClick={() => submit("draft")}>
                Save draft
              </Button>
              {scheduling ? (
                <Button type="button" variant="outline" disabled={pending} onClick={() => submit("schedule")}>
                  Schedule send
                </Button>
              ) : (
                <Button type="button" variant="outline" disabled={pending} onClick={() => setScheduling(true)}>
                  Schedule…
                </Button>
              )}
            </div>
            <Button type="submit" disabled={pending}>
              {pending ? "Sending…" : "Send"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
