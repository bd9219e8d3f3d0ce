"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Progress } from "@/components/ui/progress";
import type { ActionResult } from "@/lib/auth/owner-action";
import { plural } from "@/lib/utils";

type Filter = { status: "dead" | "failed"; source?: string; type?: string; hideBookkeeping?: boolean };
type Props = {
  filter: Filter;
  total: number;
  requeueMatchingAction: (input: Filter) => Promise<ActionResult<{ requeued: number }>>;
};

/** Requeues every matching event in batches, with a progress bar, until none is left. */
export function RequeueAll({ filter, total, requeueMatchingAction }: Props) {
  const router = useRouter();
  const [done, setDone] = React.useState<number | null>(null);

  async function run() {
    let count = 0;
    setDone(0);
    try {
      for (;;) {
        const res = await requeueMatchingAction(filter);
        if (!res.ok) throw new Error(res.error);
        if (res.data.requeued === 0) break;
        count += res.data.requeued;
        setDone(count);
      }
      toast.success(`${plural(count, "event")} requeued`);
    } finally {
      setDone(null);
      router.refresh();
    }
  }

  if (done !== null) {
    return (
      <div className="flex w-64 items-center gap-2 text-xs text-muted-foreground" role="status">
        <Progress value={total ? Math.min(100, (done / total) * 100) : null} aria-label="Requeue progress" />
        <span className="tabular-nums">
          {done}/{total}
        </span>
      </div>
    );
  }
  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" variant="outline" disabled={total === 0}>
          Requeue all {total} {filter.status}
        </Button>
      }
      title={`Requeue ${plural(total, `${filter.status} event`)}?`}
      description="They go back to pending with a fresh set of attempts, and agents will see them again."
      actionLabel="Requeue"
      destructive={false}
      onConfirm={() => void run().catch((err: Error) => toast.error(err.message))}
    />
  );
}
