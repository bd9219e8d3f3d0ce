"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  initial: string;
  nextVersion: number;
  saveAction: (input: { json: string; note?: string }) => Promise<ActionResult<{ version: number }>>;
};

/** JSON editor for the whole policy; saving applies it at once as the next version. Errors name the rule. */
export function PolicyEditor({ initial, nextVersion, saveAction }: Props) {
  const router = useRouter();
  const [json, setJson] = React.useState(initial);
  const [note, setNote] = React.useState("");
  const [errors, setErrors] = React.useState<string[]>([]);
  const [pending, startTransition] = React.useTransition();
  React.useEffect(() => setJson(initial), [initial]);

  function save() {
    startTransition(async () => {
      const res = await saveAction({ json, note: note || undefined });
      if (!res.ok) return void setErrors(res.error.split("; "));
      setErrors([]);
      setNote("");
      toast.success(`Policy version ${res.data.version} is in force`);
      router.refresh();
    });
  }

  return (
    <div className="grid gap-3">
      <FormField
        id="policy-json"
        label="Policy (JSON)"
        description='{"rules": [{"id": "…", "effect": "…", …}]}; rules are tried in order.'
        error={errors.length ? errors : null}
      >
        <Textarea value={json} onChange={(e) => setJson(e.target.value)} rows={16} spellCheck={false} className="font-mono text-xs" />
      </FormField>
      <FormField id="policy-note" label="Note (optional)" description="Why this change; kept with the version.">
        <Input value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
      </FormField>
      <div className="flex items-center gap-2">
        <Button onClick={save} disabled={pending}>
          {pending ? "Saving…" : `Save as version ${nextVersion}`}
        </Button>
        <Button variant="ghost" onClick={() => setJson(initial)} disabled={pending || json === initial}>
          Reset
        </Button>
      </div>
    </div>
  );
}
