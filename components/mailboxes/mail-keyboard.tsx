"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Kbd } from "@/components/ui/kbd";
import { LABEL_INPUT_ID } from "@/components/mailboxes/label-editor";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  /** The hrefs of the listed threads in order, and which one is open. */
  threads: Array<{ id: string; href: string }>;
  current: string | null;
  /** Where the list goes once the open thread is trashed. */
  closedHref: string;
  trashAction: (input: { threadId: string }) => Promise<ActionResult<{ threadId: string; labels: string[] }>>;
};

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

/** j/k next and previous thread, e trash, l label; ignored while typing or with a modifier. */
export function MailKeyboard({ threads, current, closedHref, trashAction }: Props) {
  const router = useRouter();

  React.useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      const i = threads.findIndex((t) => t.id === current);
      if (e.key === "j" || e.key === "k") {
        const next = threads[e.key === "j" ? i + 1 : i < 0 ? 0 : i - 1];
        if (next) {
          e.preventDefault();
          router.push(next.href);
        }
      } else if (e.key === "e" && current) {
        e.preventDefault();
        void trashAction({ threadId: current }).then((res) => {
          if (!res.ok) return void toast.error(res.error);
          toast.success("Moved to trash");
          router.push(threads[i + 1]?.href ?? closedHref);
        });
      } else if (e.key === "l" && current) {
        const input = document.getElementById(LABEL_INPUT_ID);
        if (input) {
          e.preventDefault();
          input.focus();
        }
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [threads, current, closedHref, trashAction, router]);

  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <span>
        <Kbd>j</Kbd>/<Kbd>k</Kbd> next/previous
      </span>
      <span>
        <Kbd>e</Kbd> trash
      </span>
      <span>
        <Kbd>l</Kbd> label
      </span>
    </p>
  );
}
