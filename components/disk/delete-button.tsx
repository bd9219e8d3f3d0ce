"use client";

import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { useRouter } from "next/navigation";
import { Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  /** What is deleted, shown and typed to confirm: a key, task id or path. */
  name: string;
  kind: "key" | "task state" | "file" | "link";
  onDelete: () => Promise<ActionResult<unknown>>;
  /** Where to go afterwards (e.g. out of the viewer of what was deleted). */
  after?: string;
  description?: string;
  actionLabel?: string;
};

/** Deletes one disk object after the owner types its name (a link: after one confirmation). */
export function DeleteButton({ name, kind, onDelete, after, description, actionLabel }: Props) {
  const router = useRouter();
  // Agents choose names: as words (labels, toasts) they are shown with their invisible characters written out.
  const shown = revealInvisible(name);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="xs" className="text-destructive hover:text-destructive" aria-label={`${actionLabel ?? "Delete"} ${kind} ${shown}`}>
          <Trash2 />
          {actionLabel ?? "Delete"}
        </Button>
      }
      title={
        <>
          {actionLabel ?? "Delete"} {kind} “<UntrustedText text={name} />
          ”?
        </>
      }
      description={description ?? "Agents will no longer find it. This cannot be undone."}
      // A link's name is a 26-character id: revoking one is a single confirmation (another link is one click away).
      confirmText={kind === "link" ? undefined : name}
      actionLabel={`${actionLabel ?? "Delete"} ${kind}`}
      onConfirm={async () => {
        const res = await onDelete();
        if (!res.ok) throw new Error(res.error);
        toast.success(`${kind[0].toUpperCase()}${kind.slice(1)} “${shown}” ${actionLabel === "Revoke" ? "revoked" : "deleted"}`);
        if (after) router.push(after);
        router.refresh();
      }}
    />
  );
}
