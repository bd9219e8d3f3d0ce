"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  keyId: string;
  name: string;
  revokeAction: (input: { keyId: string }) => Promise<ActionResult<unknown>>;
};

export function RevokeKeyButton({ keyId, name, revokeAction }: Props) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="xs" className="text-destructive hover:text-destructive" aria-label={`Revoke ${name}`}>
          Revoke
        </Button>
      }
      title={`Revoke “${name}”?`}
      description="Calls made with this key are refused from the next request on, and its MCP sessions end. This cannot be undone."
      confirmText={name}
      actionLabel="Revoke key"
      onConfirm={async () => {
        const res = await revokeAction({ keyId });
        // ConfirmDialog shows a thrown error as a toast and stays open.
        if (!res.ok) throw new Error(res.error);
        toast.success(`Key “${name}” revoked`);
        router.refresh();
      }}
    />
  );
}
