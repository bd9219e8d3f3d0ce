"use client";

import { TriangleAlert } from "lucide-react";
import { CopyButton } from "@/components/ui/copy-button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** A `whsec_` signing secret, shown once (after create or rotate) with copy: Brynth keeps it encrypted and never shows it again. */
export function WebhookSecretOnce({ id, secret, note }: { id: string; secret: string; note?: string }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Signing secret</Label>
      <div className="flex items-center gap-2">
        <Input id={id} readOnly value={secret} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={secret} label="Copy secret" showLabel variant="outline" toastMessage="Secret copied" />
      </div>
      <p className="flex items-center gap-1.5 text-xs text-warning">
        <TriangleAlert className="size-3.5 shrink-0" aria-hidden />
        {note ?? "Give it to the receiver now (Standard Webhooks verification): it is not shown again."}
      </p>
    </div>
  );
}
