"use client";

import * as React from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import type { Action } from "@/components/channels/types";

type Props = {
  revealAction: Action<Record<string, never>, { secret: string }>;
  rotateAction: Action<Record<string, never>, { secret: string }>;
};

/** The Standard Webhooks secret that signs callback_url deliveries, shown on demand so receivers can verify them. */
export function CallbackSecretCard({ revealAction, rotateAction }: Props) {
  const [secret, setSecret] = React.useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Callback signing secret</CardTitle>
        <CardDescription>
          Every <code>callback_url</code> delivery is signed in the Standard Webhooks format (<code>webhook-id</code>, <code>webhook-timestamp</code>,{" "}
          <code>webhook-signature</code>). Verify it with this secret.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-2">
        {secret ? (
          <div className="flex min-w-0 flex-1 items-center gap-2 rounded-md border bg-muted/40 p-2">
            <code className="min-w-0 flex-1 truncate text-xs">{secret}</code>
            <CopyButton value={secret} label="Copy secret" size="icon-xs" />
          </div>
        ) : (
          <Button
            size="sm"
            variant="outline"
            onClick={async () => {
              const res = await revealAction({});
              if (!res.ok) return void toast.error(res.error);
              setSecret(res.data.secret);
            }}
          >
            Reveal
          </Button>
        )}
        <ConfirmDialog
          trigger={
            <Button size="sm" variant="ghost">
              Rotate
            </Button>
          }
          title="Rotate the callback secret?"
          description="Callbacks are signed with the new secret at once, and for 24 hours with the old one beside it: switch your receivers within a day."
          actionLabel="Rotate"
          onConfirm={async () => {
            const res = await rotateAction({});
            if (!res.ok) throw new Error(res.error);
            setSecret(res.data.secret);
            toast.success("Callback secret rotated");
          }}
        />
      </CardContent>
    </Card>
  );
}
