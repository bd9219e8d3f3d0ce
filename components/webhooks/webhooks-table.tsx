"use client";

import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { useRouter } from "next/navigation";
import { KeyRound, ListPlus, Pencil, Send, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { RowActionButton } from "@/components/ui/row-action-button";
import { Switch } from "@/components/ui/switch";
import { ListTable } from "@/components/ui/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import type { ActionResult } from "@/lib/auth/owner-action";
import { type SaveWebhook, WebhookFormDialog } from "@/components/webhooks/webhook-form-dialog";
import { type UpdateHeaders, WebhookHeadersDialog } from "@/components/webhooks/webhook-headers-dialog";
import { type RotateWebhookSecret, RotateWebhookSecretDialog } from "@/components/webhooks/rotate-webhook-secret-dialog";

export type WebhookRowView = {
  id: string;
  url: string;
  eventTypes: string[];
  inboxIds: string[];
  /** Addresses of the watched mailboxes, in `inboxIds` order; empty = every mailbox. */
  mailboxAddresses: string[];
  /** The creator key's name, or null when the owner created it. */
  creator: { name: string; prefix: string; revoked: boolean } | null;
  enabled: boolean;
  disabledReason: string | null;
  lastDeliveryAt: string | null;
  lastAttempt: { ok: boolean; statusCode: number | null; at: string } | null;
  headerNames: string[];
  /** Until when the previous secret still signs, after a rotation. */
  previousSecretUntil: string | null;
};

export type WebhookActions = {
  saveAction: SaveWebhook;
  setEnabledAction: (input: { webhookId: string; enabled: boolean }) => Promise<ActionResult<unknown>>;
  deleteAction: (input: { webhookId: string }) => Promise<ActionResult<unknown>>;
  rotateAction: RotateWebhookSecret;
  headersAction: UpdateHeaders;
  testAction: (input: { webhookId: string }) => Promise<ActionResult<{ deliveryId: string }>>;
};

type Props = WebhookActions & {
  rows: WebhookRowView[];
  eventTypes: readonly string[];
  mailboxes: ReadonlyArray<{ id: string; address: string }>;
  moreMailboxes?: boolean;
};

/** Every webhook of the project, the agents' included, with what it watches, its state and its row of actions. */
export function WebhooksTable({ rows, eventTypes, mailboxes, moreMailboxes, ...actions }: Props) {
  const router = useRouter();

  async function setEnabled(r: WebhookRowView, enabled: boolean) {
    const res = await actions.setEnabledAction({ webhookId: r.id, enabled });
    if (!res.ok) return void toast.error(res.error);
    toast.success(enabled ? "Webhook enabled" : "Webhook disabled", { description: r.url });
    router.refresh();
  }

  async function sendTest(r: WebhookRowView) {
    const res = await actions.testAction({ webhookId: r.id });
    if (!res.ok) return void toast.error(res.error);
    toast.success("Test event queued", { description: "Its attempt shows in the delivery log below in a moment." });
    // The attempt lands a moment after the job runs; a second refresh picks it up without a reload.
    router.refresh();
    setTimeout(() => router.refresh(), 1500);
  }

  async function remove(r: WebhookRowView) {
    const res = await actions.deleteAction({ webhookId: r.id });
    if (!res.ok) throw new Error(res.error);
    toast.success("Webhook deleted", { description: r.url });
    router.refresh();
  }

  return (
    <ListTable columns={["Endpoint", "Created by", "Events", "Mailboxes", "Status", "Last delivery"]} actions>
      {rows.map((r) => (
        <TableRow key={r.id} data-webhook-id={r.id} className="align-top">
          <TableCell className="max-w-72 pl-4">
            <div className="truncate font-mono text-xs" title={revealInvisible(r.url)}>
              <UntrustedText text={r.url} />
            </div>
            <div className="mt-0.5 flex flex-wrap gap-x-2 text-[11px] text-muted-foreground">
              <span className="font-mono">{r.id}</span>
              {r.headerNames.length > 0 && <span>{r.headerNames.length === 1 ? "1 custom header" : `${r.headerNames.length} custom headers`}</span>}
              {r.previousSecretUntil && (
                <span title="After a rotation the old secret signs too, as a second signature">
                  two signatures until <RelativeTime date={r.previousSecretUntil} />
                </span>
              )}
            </div>
          </TableCell>
          <TableCell className="text-sm">
            {r.creator ? (
              <span title={`API key ${r.creator.prefix}…${r.creator.revoked ? " (revoked)" : ""}`}>
                {r.creator.name}
                {r.creator.revoked && <span className="text-xs text-muted-foreground"> (revoked)</span>}
              </span>
            ) : (
              "Owner"
            )}
          </TableCell>
          <TableCell className="max-w-64">
            <div className="flex flex-wrap gap-1">
              {r.eventTypes.map((t) => (
                <Badge key={t} variant="outline" className="font-mono text-[11px]">
                  {t}
                </Badge>
              ))}
            </div>
          </TableCell>
          <TableCell className="max-w-56 text-xs">
            {r.mailboxAddresses.length === 0 ? (
              <span className="text-muted-foreground">every mailbox</span>
            ) : (
              r.mailboxAddresses.map((a) => (
                <div key={a} className="truncate font-mono" title={a}>
                  {a}
                </div>
              ))
            )}
          </TableCell>
          <TableCell>
            <div className="flex items-center gap-2">
              <Switch checked={r.enabled} onCheckedChange={(on) => setEnabled(r, on)} aria-label={`${r.enabled ? "Disable" : "Enable"} ${r.url}`} />
              {r.enabled ? <Badge variant="success">enabled</Badge> : <Badge variant="destructive">disabled</Badge>}
            </div>
            {!r.enabled && r.disabledReason && <div className="mt-1 max-w-48 text-xs text-muted-foreground">{r.disabledReason}</div>}
          </TableCell>
          <TableCell className="text-sm whitespace-nowrap">
            {r.lastAttempt ? (
              <div className="flex items-center gap-1.5">
                <Badge variant={r.lastAttempt.ok ? "success" : "destructive"}>{r.lastAttempt.statusCode ?? "no answer"}</Badge>
                <RelativeTime date={r.lastAttempt.at} className="text-muted-foreground" />
              </div>
            ) : (
              <span className="text-muted-foreground">never</span>
            )}
          </TableCell>
          <TableCell className="pr-4">
            <div className="flex justify-end gap-0.5">
              <RowActionButton icon={Send} label={`Send a test event to ${r.url}`} onClick={() => sendTest(r)}>
                Test
              </RowActionButton>
              <WebhookFormDialog
                webhook={{ id: r.id, url: r.url, eventTypes: r.eventTypes, inboxIds: r.inboxIds }}
                eventTypes={eventTypes}
                mailboxes={mailboxes}
                moreMailboxes={moreMailboxes}
                saveAction={actions.saveAction}
                trigger={
                  <RowActionButton icon={Pencil} label={`Edit ${r.url}`}>
                    Edit
                  </RowActionButton>
                }
              />
              <WebhookHeadersDialog
                webhookId={r.id}
                url={r.url}
                names={r.headerNames}
                updateAction={actions.headersAction}
                trigger={
                  <RowActionButton icon={ListPlus} label={`Custom headers of ${r.url}`}>
                    Headers
                  </RowActionButton>
                }
              />
              <RotateWebhookSecretDialog
                webhookId={r.id}
                url={r.url}
                rotateAction={actions.rotateAction}
                trigger={
                  <RowActionButton icon={KeyRound} label={`Rotate the secret of ${r.url}`}>
                    Rotate
                  </RowActionButton>
                }
              />
              <ConfirmDialog
                trigger={
                  <RowActionButton icon={Trash2} label={`Delete ${r.url}`}>
                    Delete
                  </RowActionButton>
                }
                title="Delete this webhook?"
                description={`Deliveries to ${r.url} stop at once, queued retries included. ${r.creator ? `The agent key “${r.creator.name}” created it and will no longer see it.` : ""}`}
                confirmText={r.url}
                onConfirm={() => remove(r)}
              />
            </div>
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
