"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { X } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ActionResult } from "@/lib/auth/owner-action";

type LabelsResult = ActionResult<{ threadId: string; labels: string[] }>;
type Props = {
  threadId: string;
  /** The thread's labels; system labels are shown but only the owner's own (and agents') can be removed here. */
  labels: string[];
  /** Of those, the ones the owner may remove here (agents' and the owner's own labels, and `unread`). */
  editable: string[];
  setLabelsAction: (input: { threadId: string; addLabels: string[]; removeLabels: string[] }) => Promise<LabelsResult>;
};

export const LABEL_INPUT_ID = "thread-label-input";

/** Badges with a remove button, and an input that adds a label on Enter (`l` focuses it). */
export function LabelEditor({ threadId, labels, editable, setLabelsAction }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();
  const [error, setError] = React.useState<string | null>(null);

  function change(addLabels: string[], removeLabels: string[], done?: () => void) {
    startTransition(async () => {
      const res = await setLabelsAction({ threadId, addLabels, removeLabels });
      if (!res.ok) return void setError(res.error);
      setError(null);
      done?.();
      toast.success(addLabels.length ? `Labelled ${addLabels.join(", ")}` : `Removed ${removeLabels.join(", ")}`);
      router.refresh();
    });
  }

  return (
    <div className="grid gap-1">
      <div className="flex flex-wrap items-center gap-1">
        {labels.map((l) => (
          <Badge key={l} variant="outline" className="gap-1">
            {l}
            {editable.includes(l) && (
              <button
                type="button"
                aria-label={`Remove label ${l}`}
                disabled={pending}
                onClick={() => change([], [l])}
                className="rounded-sm hover:text-destructive"
              >
                <X className="size-3" aria-hidden />
              </button>
            )}
          </Badge>
        ))}
        <form
          className="inline-flex"
          onSubmit={(e) => {
            e.preventDefault();
            const input = e.currentTarget.elements.namedItem("label") as HTMLInputElement;
            const value = input.value.trim();
            if (value) change([value], [], () => (input.value = ""));
          }}
        >
          <Label htmlFor={LABEL_INPUT_ID} className="sr-only">
            Add label
          </Label>
          <Input
            id={LABEL_INPUT_ID}
            name="label"
            placeholder="Add label…"
            autoComplete="off"
            spellCheck={false}
            disabled={pending}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${LABEL_INPUT_ID}-error` : undefined}
            onChange={() => setError(null)}
            className="h-6 w-32 px-2 text-xs"
          />
        </form>
      </div>
      {error && (
        <p id={`${LABEL_INPUT_ID}-error`} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
