"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/auth/owner-action";

type Action = "mark_sent" | "resend" | "mark_failed";
type Props = {
  messageId: string;
  resolveAction: (input: { messageId: string; action: Action }) => Promise<ActionResult<{ status: string }>>;
};

const LABELS: Record<Action, string> = { mark_sent: "Mark sent", resend: "Resend", mark_failed: "Mark failed" };
const DONE: Record<Action, string> = { mark_sent: "Marked sent", resend: "Queued again", mark_failed: "Marked failed" };

/**
 * The relay may or may not have the message (the connection dropped after the body went out): only the owner, who
 * can check the relay's log or ask the recipient, decides. Resend sends the same signed bytes again.
 */
export function ResolveUnknownButtons({ messageId, resolveAction }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();
  return (
    <fieldset aria-label={`Resolve ${messageId}`} className="mt-1 flex flex-wrap gap-1 border-0 p-0 font-sans">
      {(Object.keys(LABELS) as Action[]).map((action) => (
        <Button
          key={action}
          size="sm"
          variant={action === "mark_failed" ? "ghost" : "outline"}
          className="h-6 px-2 text-xs"
          disabled={pending}
          onClick={() =>
            startTransition(async () => {
              const res = await resolveAction({ messageId, action });
              if (!res.ok) return void toast.error(res.error);
              toast.success(`${DONE[action]}: ${messageId}`);
              router.refresh();
            })
          }
        >
          {LABELS[action]}
        </Button>
      ))}
    </fieldset>
  );
}
