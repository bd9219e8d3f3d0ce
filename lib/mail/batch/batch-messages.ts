import { and, eq, inArray, or } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailMessages, messageColumns } from "@/lib/db/schema/mail";
import { type BatchAction, type BatchItem, failed, uniqueIds } from "@/lib/mail/batch/batch-item";
import { inFlightConflict } from "@/lib/mail/deletion/delete-message";
import { eraseMessages, inFlight } from "@/lib/mail/deletion/erase-messages";
import { applyLabels, labelChange } from "@/lib/mail/labels/apply-labels";
import { messageNotFound, messageRef, type StoredMessage } from "@/lib/mail/lookup/find-message";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { attachmentsOf } from "@/lib/mail/messages/attachments-of";
import { messageView, type MessageView } from "@/lib/mail/messages/message-view";

/**
 * POST /inboxes/{inbox_id}/messages/batch (REST-only): get, label, trash or delete up to 100 messages of one inbox
 * in one transaction, with a result per id. Ids are `msg_…` or RFC Message-IDs, as for one message.
 */
export async function batchMessages(
  db: Executor,
  o: { actor: Actor; inboxId: string; action: BatchAction; ids: readonly string[]; add: readonly string[]; remove: readonly string[] },
): Promise<BatchItem<MessageView>[]> {
  const { projectId } = o.actor;
  const mailbox = await findMailbox(db, o.actor, o.inboxId);
  const ids = uniqueIds(o.ids);
  const refs = ids.map(messageRef);
  const ours = refs.flatMap((r) => ("id" in r ? [r.id] : []));
  const rfcs = refs.flatMap((r) => ("rfcMessageId" in r ? [r.rfcMessageId] : []));
  const rows = await db
    .select(messageColumns)
    .from(mailMessages)
    .where(
      and(
        eq(mailMessages.projectId, projectId),
        eq(mailMessages.mailboxId, mailbox.id),
        or(ours.length ? inArray(mailMessages.id, ours) : undefined, rfcs.length ? inArray(mailMessages.rfcMessageId, rfcs) : undefined),
      ),
    );
  const byRef = new Map<string, StoredMessage>();
  for (const r of rows) {
    byRef.set(r.id, r);
    if (r.rfcMessageId && !byRef.has(r.rfcMessageId)) byRef.set(r.rfcMessageId, r);
  }
  const found = refs.map((r, i) => ({ id: ids[i], row: byRef.get("id" in r ? r.id : r.rfcMessageId) }));
  const rowsFound = [...new Map(found.flatMap((f) => (f.row ? [[f.row.id, f.row] as const] : []))).values()];
  const present = rowsFound.map((r) => r.id);

  if (o.action === "delete") {
    const erasable = rowsFound.filter((r) => !inFlight(r)).map((r) => r.id);
    await eraseMessages(db, { projectId, messageIds: erasable });
    return found.map(({ id, row }) => (row && inFlight(row) ? failed(id, inFlightConflict(row.id)) : { id, ok: true, deleted: !!row }));
  }
  if (o.action === "get") {
    const attachments = await attachmentsOf(db, projectId, present);
    return found.map(({ id, row }) => (row ? { id, ok: true, item: messageView(row, attachments.get(row.id) ?? []) } : failed(id, messageNotFound(id))));
  }
  const change = o.action === "trash" ? { add: ["trash"], remove: [] } : labelChange(o.add, o.remove);
  await applyLabels(db, { projectId, messageIds: present, change });
  const labels = new Map(
    (
      await db
        .select({ id: mailMessages.id, labels: mailMessages.labels })
        .from(mailMessages)
        .where(and(eq(mailMessages.projectId, projectId), inArray(mailMessages.id, present)))
    ).map((r) => [r.id, r.labels]),
  );
  return found.map(({ id, row }) => (row ? { id, ok: true, labels: labels.get(row.id) ?? [] } : failed(id, messageNotFound(id))));
}
