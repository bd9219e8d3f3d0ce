"use client";

import { revealInvisible } from "@/lib/text/reveal-invisible";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  grantId: string;
  clientName: string;
  revokeAction: (input: { grantId: string }) => Promise<ActionResult<{ id: string }>>;
};

export function RevokeGrantButton({ grantId, clientName, revokeAction }: Props) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="xs" className="text-destructive hover:text-destructive" aria-label={`Revoke ${revealInvisible(clientName)}`}>
          Revoke
        </Button>
      }
      title={`Revoke ${revealInvisible(clientName)}?`}
      description="Its tokens stop working on its next request, and its MCP sessions end. It can connect again only if you approve it again."
      confirmText={clientName}
      actionLabel="Revoke access"
      onConfirm={async () => {
        const res = await revokeAction({ grantId });
        if (!res.ok) throw new Error(res.error);
        toast.success(`${revealInvisible(clientName)} revoked`);
        router.refresh();
      }}
    />
  );
}
