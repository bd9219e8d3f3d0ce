"use client";

import { revealInvisible } from "@/lib/text/reveal-invisible";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { Action } from "@/components/channels/types";
import { plural } from "@/lib/utils";

type Props = {
  channelId: string;
  label: string;
  status: string;
  approveAction: Action<{ channelId: string }>;
  removeAction: Action<{ channelId: string }, { moved_requests: number }>;
};

/** Approve a verified channel; remove one (its pending requests move to the owner). */
export function ChannelRowActions({ channelId, label, status, approveAction, removeAction }: Props) {
  const router = useRouter();
  // An agent may name the channel it adds: in the dashboard's sentences, its invisible characters are written out.
  const shown = revealInvisible(label);
  return (
    <div className="flex justify-end gap-1">
      {status === "awaiting_approval" && (
        <Button
          size="xs"
          aria-label={`Approve ${shown}`}
          onClick={async () => {
            const res = await approveAction({ channelId });
            if (!res.ok) return void toast.error(res.error);
            toast.success(`Channel “${shown}” is active`);
            router.refresh();
          }}
        >
          Approve
        </Button>
      )}
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size="xs" className="text-destructive hover:text-destructive" aria-label={`Remove ${shown}`}>
            Remove
          </Button>
        }
        title={`Remove channel “${shown}”?`}
        description="Its links and buttons stop working at once, and its pending requests move to you (the owner channel)."
        confirmText={label}
        actionLabel="Remove channel"
        onConfirm={async () => {
          const res = await removeAction({ channelId });
          if (!res.ok) throw new Error(res.error);
          const moved = res.data.moved_requests;
          toast.success(`Channel “${shown}” removed${moved ? `; ${plural(moved, "pending request")} moved to you` : ""}`);
          router.refresh();
        }}
      />
    </div>
  );
}
