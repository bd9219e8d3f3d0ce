"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { RotateCcw } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = { eventId: string; requeueAction: (input: { eventIds: string[] }) => Promise<ActionResult<{ requeued: number }>> };

export function RequeueButton({ eventId, requeueAction }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={pending}
      onClick={() =>
        startTransition(async () => {
          const res = await requeueAction({ eventIds: [eventId] });
          if (!res.ok) return void toast.error(res.error);
          if (res.data.requeued === 0) toast.info("Nothing to requeue: the event is no longer dead or failed.");
          else toast.success("Event requeued: it is pending again with a fresh set of attempts.");
          router.refresh();
        })
      }
    >
      <RotateCcw aria-hidden />
      {pending ? "Requeueing…" : "Requeue"}
    </Button>
  );
}
