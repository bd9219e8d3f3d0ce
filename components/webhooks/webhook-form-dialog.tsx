"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useDialogForm } from "@/lib/forms/use-dialog-form";
import { CheckboxList } from "@/components/webhooks/checkbox-list";
import { WebhookSecretOnce } from "@/components/webhooks/webhook-secret-once";
import { editedFields } from "@/components/webhooks/edited-fields";

export type WebhookFormInput = { url: string; eventTypes: string[]; inboxIds: string[] };
/** A create sends every field; an edit only those changed (see editedFields). */
export type SaveWebhook = (input: Partial<WebhookFormInput> & { webhookId?: string }) => Promise<ActionResult<{ id: string; url: string; secret?: string }>>;

type Props = {
  trigger: React.ReactElement;
  eventTypes: readonly string[];
  mailboxes: ReadonlyArray<{ id: string; address: string }>;
  /** The project has more mailboxes than `mailboxes` lists: others are named by address. */
  moreMailboxes?: boolean;
  saveAction: SaveWebhook;
  /** Editing this webhook; creating when absent. */
  webhook?: WebhookFormInput & { id: string };
};

/** The form's fields, keyed by the names the domain's errors use (`request.event_types.0` reads as event_types). */
const FIELDS = { url: "url", event_types: "eventTypes", inbox_ids: "inboxIds", eventTypes: "eventTypes", inboxIds: "inboxIds" } as const;

/** Create or edit a webhook. After a create the `whsec_` secret shows once, with copy, before the list refreshes. */
export function WebhookFormDialog({ trigger, eventTypes, mailboxes, moreMailboxes, saveAction, webhook }: Props) {
  const router = useRouter();
  const [url, setUrl] = React.useState(webhook?.url ?? "");
  const [types, setTypes] = React.useState<string[]>(webhook?.eventTypes ?? ["message.received"]);
  const [inboxes, setInboxes] = React.useState<string[]>(webhook?.inboxIds ?? []);
  const [typed, setTyped] = React.useState("");
  const dialog = useDialogForm<(typeof FIELDS)[keyof typeof FIELDS], { url: string; secret: string }>({
    fields: FIELDS,
    onReset: () => {
      setUrl(webhook?.url ?? "");
      setTypes(webhook?.eventTypes ?? ["message.received"]);
      setInboxes(webhook?.inboxIds ?? []);
      setTyped("");
    },
  });
  const { errors, created, pending } = dialog;
  const idp = webhook ? `edit-${webhook.id}` : "new-webhook";

  function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    dialog.submit(
      () => {
        // Addresses typed for mailboxes past the list: inbox_ids takes ids or addresses alike.
        const addresses = typed.split(/[\s,;]+/).filter(Boolean);
        const fields = { url: url.trim(), eventTypes: types, inboxIds: [...inboxes, ...addresses] };
        return saveAction(webhook ? { webhookId: webhook.id, ...editedFields(webhook, fields) } : fields);
      },
      (data) => {
        if (!webhook && data.secret) {
          toast.success("Webhook created");
          // The list refreshes when the dialog closes: the secret shows only here, once.
          return dialog.setCreated({ url: data.url, secret: data.secret });
        }
        toast.success(webhook ? "Webhook saved" : "Webhook created");
        dialog.close();
        router.refresh();
      },
    );
  }

  return (
    <Dialog open={dialog.open} onOpenChange={dialog.onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)] sm:max-w-xl">
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>Webhook created</DialogTitle>
              <DialogDescription className="break-all">
                Deliveries to <span className="font-mono">{created.url}</span> are signed with this secret (headers webhook-id, webhook-timestamp and
                webhook-signature).
              </DialogDescription>
            </DialogHeader>
            <WebhookSecretOnce id="new-webhook-secret" secret={created.secret} />
            <DialogFooter>
              <Button onClick={dialog.close}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{webhook ? "Edit webhook" : "New webhook"}</DialogTitle>
              <DialogDescription>Brynth POSTs each mail event you pick to this URL, signed, and retries failures for about a day.</DialogDescription>
            </DialogHeader>
            <FormField id={`${idp}-url`} label="Endpoint URL" description="https, on a public address." error={errors.url}>
              <Input
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                required
                maxLength={2048}
                autoComplete="off"
                spellCheck={false}
                placeholder="https://example.com/hooks/mail"
                className="font-mono"
              />
            </FormField>
            <CheckboxList
              id={`${idp}-type`}
              legend="Event types"
              options={eventTypes.map((t) => ({ value: t, label: t }))}
              value={types}
              onChange={setTypes}
              error={errors.eventTypes}
            />
            <CheckboxList
              id={`${idp}-mailbox`}
              legend="Mailboxes"
              description="None ticked: every mailbox of the project, including new ones. At most 10."
              options={mailboxes.map((m) => ({ value: m.id, label: m.address }))}
              value={inboxes}
              onChange={setInboxes}
              error={errors.inboxIds}
            />
            {moreMailboxes && (
              <FormField
                id={`${idp}-more-mailboxes`}
                label="More mailboxes"
                description={`The list shows ${mailboxes.length} of the project's mailboxes: name others by address, separated by commas.`}
              >
                <Input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} placeholder="support@example.com" />
              </FormField>
            )}
            <FormAlert>{errors.form}</FormAlert>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={dialog.close}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Saving…" : webhook ? "Save webhook" : "Create webhook"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
