"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { CalendarClock, Send, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/auth/owner-action";

/** Each names the draft's version as shown: a change an agent made since is CONFLICT, never sent or deleted unseen. */
export type DraftOwnerActions = {
  sendNowAction: (input: { draftId: string; version: number }) => Promise<ActionResult<{ messageId: string | null }>>;
  deleteAction: (input: { draftId: string; version: number }) => Promise<ActionResult<{ id: string }>>;
  updateAction: (input: {
    draftId: string;
    version: number;
    sendAt?: string | null;
  }) => Promise<ActionResult<{ draftId: string; sendAt: string | null; version: number }>>;
};

/** A datetime-local value (the owner's local time) for an ISO instant. */
const localValue = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** Send now, reschedule (or unschedule) and delete, for drafts that are not held or being sent. */
export function DraftOwnerActionsBar({
  draftId,
  version,
  subject,
  sendAt,
  actions,
}: {
  draftId: string;
  version: number;
  subject: string;
  sendAt: string | null;
  actions: DraftOwnerActions;
}) {
  const router = useRouter();
  const [when, setWhen] = React.useState(localValue(sendAt));
  const [pending, startTransition] = React.useTransition();
  const run = (work: () => Promise<ActionResult<unknown>>, done: string, after?: string) =>
    startTransition(async () => {
      const res = await work();
      if (!res.ok) return void toast.error(res.error);
      toast.success(done);
      if (after) router.push(after);
      router.refresh();
    });

  return (
    <section aria-label="Draft actions" className="grid gap-2 rounded-lg border p-3">
      <div className="flex flex-wrap items-end gap-2">
        <Button disabled={pending} onClick={() => run(() => actions.sendNowAction({ draftId, version }), "Sent", "/mail/drafts")}>
          <Send aria-hidden />
          Send now
        </Button>
        <div className="grid gap-1 text-xs">
          <label htmlFor={`send-at-${draftId}`}>Send at</label>
          <Input id={`send-at-${draftId}`} type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} className="h-8 w-56" />
        </div>
        <Button
          variant="outline"
          size="sm"
          disabled={pending || !when}
          onClick={() =>
            run(() => actions.updateAction({ draftId, version, sendAt: new Date(when).toISOString() }), `Scheduled for ${new Date(when).toLocaleString()}`)
          }
        >
          <CalendarClock aria-hidden />
          Reschedule
        </Button>
        {sendAt && (
          <Button
            variant="ghost"
            size="sm"
            disabled={pending}
            onClick={() => run(() => actions.updateAction({ draftId, version, sendAt: null }), "Unscheduled")}
          >
            Unschedule
          </Button>
        )}
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="sm" className="ml-auto text-muted-foreground hover:text-destructive">
              <Trash2 aria-hidden />
              Delete
            </Button>
          }
          title={`Delete draft “${subject || "(no subject)"}”?`}
          description="The draft and its attachments are removed; a schedule is cancelled."
          actionLabel="Delete draft"
          onConfirm={async () => {
            const res = await actions.deleteAction({ draftId, version });
            if (!res.ok) throw new Error(res.error);
            toast.success("Draft deleted");
            router.push("/mail/drafts?tab=all");
            router.refresh();
          }}
        />
      </div>
    </section>
  );
}
