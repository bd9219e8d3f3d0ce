"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormAlert } from "@/components/ui/form-alert";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  /** The saved draft's JSON, or the policy in force's when there is no draft. */
  initial: string;
  initialNote: string;
  hasDraft: boolean;
  /** The version in force the page shows: the draft is applied only while it still is. */
  versionInForce: number;
  saveAction: (input: { json: string; note?: string }) => Promise<ActionResult<{ baseVersion: number }>>;
  /** The saved draft as the page showed it: one saved again since (another tab) is not applied unseen. */
  draftUpdatedAt: string | null;
  applyAction: (input: { versionInForce: number; draftUpdatedAt: string }) => Promise<ActionResult<{ version: number; rules: number }>>;
  discardAction: (input: Record<string, never>) => Promise<ActionResult<{ deleted: boolean }>>;
};

/**
 * The draft of the next policy as JSON. Saving keeps it out of force; only a saved, unchanged draft can be
 * applied, so what is applied is what the simulator tried.
 */
export function DraftEditor({ initial, initialNote, hasDraft, versionInForce, draftUpdatedAt, saveAction, applyAction, discardAction }: Props) {
  const router = useRouter();
  const [json, setJson] = React.useState(initial);
  const [note, setNote] = React.useState(initialNote);
  // Per field, in plain words from the server (each policy problem names its rule); "form" for anything else.
  const [errors, setErrors] = React.useState<Record<string, string | undefined>>({});
  const [pending, startTransition] = React.useTransition();
  React.useEffect(() => setJson(initial), [initial]);
  React.useEffect(() => setNote(initialNote), [initialNote]);
  const edited = json !== initial || note !== initialNote;

  function save() {
    startTransition(async () => {
      const res = await saveAction({ json, note: note.trim() || undefined });
      if (!res.ok) {
        const fe = res.fieldErrors ?? {};
        return void setErrors({ json: fe.json, note: fe.note, form: fe.json || fe.note ? undefined : res.error });
      }
      setErrors({});
      toast.success("Draft saved. It is not in force until you apply it.");
      router.refresh();
    });
  }

  async function apply() {
    const res = await applyAction({ versionInForce, draftUpdatedAt: draftUpdatedAt ?? "" });
    if (!res.ok) throw new Error(res.error);
    toast.success(`Policy version ${res.data.version} is in force`);
    router.refresh();
  }

  async function discard() {
    const res = await discardAction({});
    if (!res.ok) throw new Error(res.error);
    setErrors({});
    toast.success("Draft discarded");
    router.refresh();
  }

  return (
    <div className="grid grid-cols-1 gap-3">
      <FormField
        id="policy-json"
        label="Draft policy (JSON)"
        description='{"rules": [{"id": "…", "effect": "…", …}]}; rules are tried in order, the first that matches decides.'
        error={errors.json}
      >
        <Textarea value={json} onChange={(e) => setJson(e.target.value)} rows={14} spellCheck={false} className="font-mono text-xs" />
      </FormField>
      <FormField id="policy-note" label="Note (optional)" description="Why this change; kept with the version." error={errors.note}>
        <Input value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
      </FormField>
      <FormAlert>{errors.form}</FormAlert>
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={save} disabled={pending || (hasDraft && !edited)} variant={hasDraft && !edited ? "outline" : "default"}>
          {pending ? "Saving…" : "Save draft"}
        </Button>
        {hasDraft && (
          <ConfirmDialog
            trigger={
              <Button variant={edited ? "outline" : "default"} disabled={pending || edited}>
                Apply as version {versionInForce + 1}
              </Button>
            }
            title={`Apply the draft as version ${versionInForce + 1}?`}
            description="It goes into force at once: agents' requests are decided by it from now on. The draft is then cleared; the history keeps every version, and you can revert."
            actionLabel="Apply"
            destructive={false}
            onConfirm={apply}
          />
        )}
        {hasDraft && (
          <ConfirmDialog
            trigger={
              <Button variant="ghost" disabled={pending}>
                Discard draft
              </Button>
            }
            title="Discard the draft?"
            description="The saved draft is deleted. The policy in force does not change."
            actionLabel="Discard"
            onConfirm={discard}
          />
        )}
        {edited && (
          <Button
            variant="ghost"
            onClick={() => {
              setJson(initial);
              setNote(initialNote);
            }}
            disabled={pending}
          >
            Undo edits
          </Button>
        )}
      </div>
      {hasDraft && edited && <p className="text-xs text-muted-foreground">Save the draft to simulate or apply these edits.</p>}
    </div>
  );
}
