"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { RelativeTime } from "@/components/ui/relative-time";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import type { ActionResult } from "@/lib/auth/owner-action";
import { WebhookSecretOnce } from "@/components/webhooks/webhook-secret-once";

export type RotateWebhookSecret = (input: { webhookId: string }) => Promise<ActionResult<{ secret: string; previousSecretUntil: string | null }>>;

type Props = { webhookId: string; url: string; rotateAction: RotateWebhookSecret; trigger: React.ReactElement };

/** A new `whsec_` secret, shown once; the old one keeps signing (a second signature) for 24 hours so receivers can switch. */
export function RotateWebhookSecretDialog({ webhookId, url, rotateAction, trigger }: Props) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [rotated, setRotated] = React.useState<{ secret: string; until: string | null } | null>(null);
  const [pending, startTransition] = React.useTransition();

  function rotate() {
    startTransition(async () => {
      const res = await rotateAction({ webhookId });
      if (!res.ok) return void toast.error(res.error);
      setRotated({ secret: res.data.secret, until: res.data.previousSecretUntil });
      toast.success("Secret rotated");
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          if (rotated) router.refresh();
          setRotated(null);
        }
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)] sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Rotate the signing secret</DialogTitle>
          <DialogDescription className="break-all">
            {rotated?.until ? (
              <>
                Deliveries to <span className="font-mono">{url}</span> carry two signatures until <RelativeTime date={rotated.until} />: one with this secret
                and one with the old.
              </>
            ) : rotated ? (
              <>The old secret could not be read any more (the instance&apos;s APP_SECRET changed), so only this one signs from now on.</>
            ) : (
              <>
                A new secret for <span className="font-mono">{url}</span>. For 24 hours every delivery is signed with both the new and the old one, so the
                receiver can switch without missing a delivery.
              </>
            )}
          </DialogDescription>
        </DialogHeader>
        {rotated && <WebhookSecretOnce id={`rotated-secret-${webhookId}`} secret={rotated.secret} />}
        <DialogFooter>
          {rotated ? (
            <Button onClick={() => setOpen(false)}>Done</Button>
          ) : (
            <>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button onClick={rotate} disabled={pending}>
                {pending ? "Rotating…" : "Rotate secret"}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
