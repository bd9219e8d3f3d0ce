"use client";

import { TriangleAlert } from "lucide-react";
import { CopyButton } from "@/components/ui/copy-button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ConnectInstructions } from "@/components/api-keys/connect-instructions";

/** The one time a secret is on screen: the key itself, then how to use it with the real value filled in. */
export function KeySecret({ secret, publicUrl }: { secret: string; publicUrl: string }) {
  return (
    <div className="grid min-w-0 gap-5">
      <div className="grid min-w-0 gap-2">
        <Label htmlFor="new-key-secret">New API key</Label>
        <div className="flex items-center gap-2">
          <Input id="new-key-secret" readOnly value={secret} className="font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={secret} label="Copy key" showLabel variant="outline" toastMessage="Key copied" />
        </div>
        <p className="flex items-center gap-1.5 text-xs text-warning">
          <TriangleAlert className="size-3.5" aria-hidden />
          This is the only time the key is shown.
        </p>
      </div>
      <div className="grid min-w-0 gap-2">
        <div className="text-sm font-medium">Connect an agent</div>
        <ConnectInstructions publicUrl={publicUrl} secret={secret} />
      </div>
    </div>
  );
}
