"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  threadId: string;
  unread: boolean;
  markReadAction: (input: { threadId: string }) => Promise<ActionResult<{ threadId: string; labels: string[] }>>;
};

/** Opening an unread thread reads it (an owner update_thread removing `unread`, ledgered), once per opening. */
export function MarkRead({ threadId, unread, markReadAction }: Props) {
  const router = useRouter();
  const done = React.useRef<string | null>(null);
  React.useEffect(() => {
    if (!unread || done.current === threadId) return;
    done.current = threadId;
    void markReadAction({ threadId }).then((res) => {
      if (res.ok) router.refresh();
    });
  }, [threadId, unread, markReadAction, router]);
  return null;
}
