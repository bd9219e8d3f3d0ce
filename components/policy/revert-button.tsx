"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  version: number;
  /** The version in force as the page showed it: another applied since makes the revert CONFLICT. */
  inForce: number;
  revertAction: (input: { version: number; versionInForce: number }) => Promise<ActionResult<{ version: number; reverted_to: number }>>;
};

/** One confirmation, then the old rules are in force as a new version. */
export function RevertButton({ version, inForce, revertAction }: Props) {
  const router = useRouter();
  async function revert() {
    const res = await revertAction({ version, versionInForce: inForce });
    if (!res.ok) throw new Error(res.error);
    toast.success(`Version ${version} is back in force as version ${res.data.version}`);
    router.refresh();
  }
  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" variant="outline">
          Revert to v{version}
        </Button>
      }
      title={`Revert to version ${version}?`}
      description={`Its rules go back into force as a new version. Your draft, if any, is kept.`}
      actionLabel="Revert"
      destructive={false}
      onConfirm={revert}
    />
  );
}
