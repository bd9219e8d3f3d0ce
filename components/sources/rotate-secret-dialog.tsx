"use client";

import * as React from "react";
import { KeyRound } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { generateSecret, verificationOptions, type VerificationValue } from "@/components/sources/verification-help";

export type RotateSecretInput = { name: string; sourceId: string; secret: string; grace_hours: number };

type Props = {
  name: string;
  /** The row shown: a source made again under the name since is refused, not rotated. */
  sourceId: string;
  verification: VerificationValue;
  rotateAction: (input: RotateSecretInput) => Promise<ActionResult<{ previous_valid_until: string | null }>>;
};

/** Secrets are never shown again, so changing one means entering (or generating) a new one. */
export function RotateSecretDialog({ name, sourceId, verification, rotateAction }: Props) {
  const [open, setOpen] = React.useState(false);
  const [secret, setSecret] = React.useState("");
  const [grace, setGrace] = React.useState("24");
  const [error, setError] = React.useState<string | undefined>();
  const [pending, startTransition] = React.useTransition();
  const canGenerate = verificationOptions.find((o) => o.value === verification)?.generate;

  function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    startTransition(async () => {
      const res = await rotateAction({ name, sourceId, secret, grace_hours: Number(grace) });
      if (!res.ok) return void setError(res.fieldErrors?.secret ?? res.error);
      toast.success(`Secret of “${name}” rotated`, {
        description: res.data.previous_valid_until
          ? `The old secret keeps working until ${new Date(res.data.previous_valid_until).toLocaleString()}.`
          : "The old secret stopped working.",
      });
      setOpen(false);
      setSecret("");
      setError(undefined);
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="ghost" size="xs" aria-label={`Rotate the secret of ${name}`}>
          <KeyRound aria-hidden />
          Rotate secret
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Rotate the secret of “{name}”</DialogTitle>
            <DialogDescription>Enter the provider&apos;s new signing secret. It is stored encrypted and not shown again.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <FormField id="rotate-secret" label="New secret" error={error}>
              <Input value={secret} onChange={(e) => setSecret(e.target.value)} required autoComplete="off" spellCheck={false} className="font-mono" />
            </FormField>
            {canGenerate && (
              <Button type="button" variant="outline" size="xs" className="w-fit" onClick={() => setSecret(generateSecret(verification))}>
                Generate a secret
              </Button>
            )}
          </div>
          <FormField id="rotate-grace" label="Keep the old secret valid for" description="Deliveries the provider signed before the switch still land.">
            <NativeSelect value={grace} onChange={(e) => setGrace(e.target.value)}>
              <option value="0">No grace period</option>
              <option value="1">1 hour</option>
              <option value="24">24 hours</option>
              <option value="168">7 days</option>
            </NativeSelect>
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Rotating…" : "Rotate secret"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
