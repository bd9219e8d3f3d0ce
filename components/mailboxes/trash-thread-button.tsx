"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  threadId: string;
  afterHref: string;
  trashAction: (input: { threadId: string }) => Promise<ActionResult<{ threadId: string; labels: string[] }>>;
};

/** Trash keeps the mail (the Trash toggle shows it again), so it needs no confirmation. */
export function TrashThreadButton({ threadId, afterHref, trashAction }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={pending}
      onClick={() =>
        startTransition(async () => {
          const res = await trashAction({ threadId });
          if (!res.ok) return void toast.error(res.error);
          toast.success("Moved to trash");
          router.push(afterHref);
        })
      }
    >
      <Trash2 aria-hidden />
      Trash
    </Button>
  );
}
