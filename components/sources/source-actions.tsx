"use client";

import * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Inbox, Send, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";
import { RotateSecretDialog, type RotateSecretInput } from "@/components/sources/rotate-secret-dialog";
import type { VerificationValue } from "@/components/sources/verification-help";

type Props = {
  name: string;
  /** The row shown: Remove and Rotate act on it, never on a source made again under its name since. */
  sourceId: string;
  verification: VerificationValue | null;
  testAction: (input: { name: string }) => Promise<ActionResult<{ id: string }>>;
  removeAction: (input: { name: string; sourceId: string }) => Promise<ActionResult<{ name: string }>>;
  rotateAction: (input: RotateSecretInput) => Promise<ActionResult<{ previous_valid_until: string | null }>>;
};

export function SourceActions({ name, sourceId, verification, testAction, removeAction, rotateAction }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();

  function sendTest() {
    startTransition(async () => {
      const res = await testAction({ name });
      if (!res.ok) return void toast.error(res.error);
      toast.success("Test event received", {
        description: "It went through the same verification as real deliveries.",
        action: { label: "View", onClick: () => router.push(`/events/${res.data.id}`) },
      });
      router.refresh();
    });
  }

  return (
    <div className="flex items-center justify-end gap-1">
      <Button variant="ghost" size="xs" onClick={sendTest} disabled={pending} aria-label={`Send test event to ${name}`}>
        <Send aria-hidden />
        {pending ? "Sending…" : "Send test event"}
      </Button>
      <Button variant="ghost" size="xs" asChild>
        <Link href={`/events?source=${encodeURIComponent(name)}`} aria-label={`Events of ${name}`}>
          <Inbox aria-hidden />
          Events
        </Link>
      </Button>
      {verification && verification !== "none" && (
        <RotateSecretDialog name={name} sourceId={sourceId} verification={verification} rotateAction={rotateAction} />
      )}
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size="xs" className="text-destructive hover:text-destructive" aria-label={`Remove ${name}`}>
            <Trash2 aria-hidden />
            Remove
          </Button>
        }
        title={`Remove the source “${name}”?`}
        description="Its URL stops accepting deliveries at once. Events already received stay in the inbox."
        confirmText={name}
        actionLabel="Remove source"
        onConfirm={async () => {
          const res = await removeAction({ name, sourceId });
          if (!res.ok) throw new Error(res.error);
          toast.success(`Source “${name}” removed`);
          router.refresh();
        }}
      />
    </div>
  );
}
