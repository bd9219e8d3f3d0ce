"use client";

import { useRouter } from "next/navigation";
import { Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  inboxId: string;
  address: string;
  deleteAction: (input: { inboxId: string }) => Promise<ActionResult<{ id: string; address: string }>>;
};

/** Deleting a mailbox refuses its mail from then on: confirmed by typing the address. */
export function DeleteMailboxButton({ inboxId, address, deleteAction }: Props) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="xs" aria-label={`Delete ${address}`} className="text-muted-foreground hover:text-destructive">
          <Trash2 aria-hidden />
          Delete
        </Button>
      }
      title={`Delete ${address}?`}
      description="Mail to this address is refused from then on, and agents lose it. Type the address to confirm."
      confirmText={address}
      actionLabel="Delete mailbox"
      onConfirm={async () => {
        const res = await deleteAction({ inboxId });
        if (!res.ok) throw new Error(res.error);
        toast.success(`${address} deleted`);
        router.refresh();
      }}
    />
  );
}
