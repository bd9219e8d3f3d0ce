"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  sessionId: string;
  current: boolean;
  revokeAction: (input: { sessionId: string }) => Promise<ActionResult<{ self: boolean }>>;
};

export function RevokeSessionButton({ sessionId, current, revokeAction }: Props) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="xs" className="text-destructive hover:text-destructive">
          {current ? "Sign out" : "Revoke"}
        </Button>
      }
      title={current ? "Sign out of this browser?" : "Revoke this session?"}
      description={current ? "This session ends now and you return to the sign-in page." : "That browser is signed out on its next request."}
      actionLabel={current ? "Sign out" : "Revoke session"}
      onConfirm={async () => {
        const res = await revokeAction({ sessionId });
        if (!res.ok) throw new Error(res.error);
        if (res.data.self) return void window.location.assign("/login");
        toast.success("Session revoked");
        router.refresh();
      }}
    />
  );
}
