"use client";

import * as React from "react";
import { Plus, TriangleAlert } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useDialogForm } from "@/lib/forms/use-dialog-form";
import { generateSecret, verificationOptions, type VerificationValue } from "@/components/sources/verification-help";

export type AddSourceInput = {
  type: "webhook" | "email";
  name: string;
  verification?: VerificationValue;
  secret?: string;
  signature_header?: string;
  id_header?: string;
  type_field?: string;
};
type Created = { name: string; url: string | null; address: string | null };

type Props = {
  addAction: (input: AddSourceInput) => Promise<ActionResult<Created>>;
  /** Label of the trigger button. */
  label?: string;
};

const optional = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

const FIELDS = ["name", "type", "verification", "secret", "signature_header", "id_header", "type_field"] as const;

export function AddSourceDialog({ addAction, label = "Add source" }: Props) {
  const [type, setType] = React.useState<"webhook" | "email">("webhook");
  const [verification, setVerification] = React.useState<VerificationValue>("stripe");
  const [secret, setSecret] = React.useState("");
  const [generated, setGenerated] = React.useState(false);
  const dialog = useDialogForm<(typeof FIELDS)[number], Created & { secret?: string }>({
    fields: FIELDS,
    onReset: () => {
      setSecret("");
      setGenerated(false);
      setType("webhook");
      setVerification("stripe");
    },
  });
  const { errors, created, pending } = dialog;
  // VerificationValue is drawn from this list, so find always hits: the fallback only satisfies the type.
  const option = verificationOptions.find((o) => o.value === verification) ?? verificationOptions[0];
  const needsSecret = type === "webhook" && verification !== "none";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input: AddSourceInput = {
      type,
      name: String(form.get("name") ?? "").trim(),
      ...(type === "webhook" && {
        verification,
        secret: needsSecret ? secret : undefined,
        signature_header: verification === "hmac_sha256" ? optional(form.get("signature_header")) : undefined,
        id_header: optional(form.get("id_header")),
        type_field: optional(form.get("type_field")),
      }),
    };
    dialog.submit(
      () => addAction(input),
      (data) => {
        dialog.setCreated({ ...data, secret: generated ? secret : undefined });
        toast.success(`Source “${data.name}” added`);
        // The list refreshes when the dialog closes (useDialogForm), so the URL and secret stay on screen.
      },
    );
  }

  return (
    <Dialog open={dialog.open} onOpenChange={dialog.onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)] sm:max-w-xl">
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>Source “{created.name}” added</DialogTitle>
              <DialogDescription>
                {created.url ? "Paste this URL into the provider's webhook settings." : "Mail sent to this address becomes email.received events."}
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor="new-source-url">{created.url ? "Webhook URL" : "Address"}</Label>
              <div className="flex items-center gap-2">
                <Input
                  id="new-source-url"
                  readOnly
                  value={created.url ?? created.address ?? ""}
                  className="font-mono text-xs"
                  onFocus={(e) => e.currentTarget.select()}
                />
                <CopyButton value={created.url ?? created.address ?? ""} label="Copy URL" showLabel variant="outline" toastMessage="Copied" />
              </div>
            </div>
            {created.secret && (
              <div className="grid gap-2">
                <Label htmlFor="new-source-secret">Signing secret</Label>
                <div className="flex items-center gap-2">
                  <Input id="new-source-secret" readOnly value={created.secret} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
                  <CopyButton value={created.secret} label="Copy secret" showLabel variant="outline" toastMessage="Secret copied" />
                </div>
                <p className="flex items-center gap-1.5 text-xs text-warning">
                  <TriangleAlert className="size-3.5" aria-hidden />
                  Give it to the sender now: Brynth stores it encrypted and never shows it again.
                </p>
              </div>
            )}
            <DialogFooter>
              <Button onClick={dialog.close}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Add source</DialogTitle>
              <DialogDescription>Verified deliveries land in the event inbox as pending events for your agents.</DialogDescription>
            </DialogHeader>
            <FormField id="source-name" label="Name" description="Lowercase, e.g. stripe. Agents filter events by it." error={errors.name}>
              <Input name="name" required maxLength={64} autoComplete="off" autoFocus placeholder="stripe" />
            </FormField>
            <FormField id="source-type" label="Type" error={errors.type}>
              <NativeSelect value={type} onChange={(e) => setType(e.target.value as "webhook" | "email")}>
                <option value="webhook">Webhook (HTTP endpoint)</option>
                <option value="email">Email (project address)</option>
              </NativeSelect>
            </FormField>
            {type === "webhook" && (
              <>
                <FormField id="source-verification" label="Verification" description={option.help} error={errors.verification}>
                  <NativeSelect
                    value={verification}
                    onChange={(e) => {
                      setVerification(e.target.value as VerificationValue);
                      setSecret("");
                      setGenerated(false);
                    }}
                  >
                    {verificationOptions.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </NativeSelect>
                </FormField>
                {needsSecret && (
                  <div className="grid gap-2">
                    <FormField id="source-secret" label="Secret" error={errors.secret}>
                      <Input
                        type={generated ? "text" : "password"}
                        value={secret}
                        onChange={(e) => {
                          setSecret(e.target.value);
                          setGenerated(false);
                        }}
                        required
                        autoComplete="off"
                        spellCheck={false}
                        className="font-mono"
                        placeholder={verification === "stripe" || verification === "standard_webhooks" ? "whsec_…" : ""}
                      />
                    </FormField>
                    {option.generate && (
                      <Button
                        type="button"
                        variant="outline"
                        size="xs"
                        className="w-fit"
                        onClick={() => {
                          setSecret(generateSecret(verification));
                          setGenerated(true);
                        }}
                      >
                        Generate a secret
                      </Button>
                    )}
                  </div>
                )}
                {verification === "hmac_sha256" && (
                  <FormField id="source-signature-header" label="Signature header" description="Default x-signature." error={errors.signature_header}>
                    <Input name="signature_header" maxLength={100} autoComplete="off" placeholder="x-signature" />
                  </FormField>
                )}
                <details className="rounded-md border px-3 py-2 text-sm">
                  <summary className="cursor-pointer text-muted-foreground">Advanced</summary>
                  <div className="mt-3 grid gap-4">
                    <FormField
                      id="source-id-header"
                      label="Delivery ID header"
                      description="A header that identifies each delivery, so provider retries do not create a second event. Signed sources (GitHub, Stripe, Standard Webhooks, HMAC) are known by what they sign instead."
                      error={errors.id_header}
                    >
                      <Input name="id_header" maxLength={100} autoComplete="off" placeholder="x-request-id" />
                    </FormField>
                    <FormField
                      id="source-type-field"
                      label="Event type field"
                      description="Where the event type sits in a JSON body, e.g. event.kind. Default: type."
                      error={errors.type_field}
                    >
                      <Input name="type_field" maxLength={100} autoComplete="off" placeholder="type" />
                    </FormField>
                  </div>
                </details>
              </>
            )}
            <FormAlert>{errors.form}</FormAlert>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={dialog.close}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Adding…" : "Add source"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
