"use client";

import type * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";

type Saved = { public_url: string | null; allowed_origins: string[]; effective_public_url: string };
type RemoteAccessFormProps = {
  publicUrl: string | null;
  allowedOrigins: string[];
  /** PUBLIC_URL (or its default): what applies when the field is empty. */
  envPublicUrl: string;
  /** ALLOWED_ORIGINS, which apply whatever is saved here. */
  envOrigins: string[];
  /** When what the form shows was saved (null: never): a save made since elsewhere is CONFLICT, not overwritten. */
  updatedAt: string | null;
  saveAction: (input: { public_url: string | null; allowed_origins: string[]; updated_at: string | null }) => Promise<ActionResult<Saved>>;
};

/** Settings → Remote access: the public URL (empty: PUBLIC_URL) and extra browser origins, one a line. */
export function RemoteAccessForm({ publicUrl, allowedOrigins, envPublicUrl, envOrigins, updatedAt, saveAction }: RemoteAccessFormProps) {
  const router = useRouter();
  // An origin's error comes back on its index (allowed_origins.2), read by its first name; the message names the origin.
  const { errors, submit, pending } = useActionForm({ public_url: "publicUrl", allowed_origins: "origins" });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const lines = String(form.get("allowed_origins") ?? "")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const input = { public_url: String(form.get("public_url") ?? "").trim() || null, allowed_origins: lines, updated_at: updatedAt };
    submit(
      () => saveAction(input),
      (saved) => {
        toast.success(`Remote access saved: ${saved.effective_public_url}`);
        router.refresh();
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid max-w-xl gap-4">
      <FormField
        id="remote-public-url"
        label="Public URL"
        description={`The address agents and browsers reach this instance at (scheme, host and port; no path). Empty: ${envPublicUrl} (PUBLIC_URL).`}
        error={errors.publicUrl}
      >
        <Input name="public_url" defaultValue={publicUrl ?? ""} placeholder={envPublicUrl} autoComplete="off" spellCheck={false} maxLength={300} />
      </FormField>
      <FormField
        id="remote-allowed-origins"
        label="Extra allowed origins"
        description={
          envOrigins.length
            ? `One origin a line, at most 20. ALLOWED_ORIGINS also applies: ${envOrigins.join(", ")}.`
            : "One origin a line (e.g. https://inspector.example.com), at most 20: browser pages that may call /mcp and the API."
        }
        error={errors.origins}
      >
        <Textarea name="allowed_origins" defaultValue={allowedOrigins.join("\n")} rows={3} spellCheck={false} className="font-mono text-xs" />
      </FormField>
      <FormAlert>{errors.form}</FormAlert>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save remote access"}
        </Button>
      </div>
    </form>
  );
}
