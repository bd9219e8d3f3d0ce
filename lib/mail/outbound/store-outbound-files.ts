import { discardOnRollback } from "@/lib/blob/unused-blob";
import type { Executor } from "@/lib/db/client";
import { putMailBlob } from "@/lib/mail/mail-blob";
import type { StoredBlob } from "@/lib/mail/inbound/store-inbound";
import type { OutboundFile } from "@/lib/mail/outbound/resolve-attachments";

/**
 * One blob per attachment for a whole batch: its messages' attachment rows share them. Written for rows `tx` inserts:
 * a send refused after this (the quota comes last) or failing later leaves no bytes behind.
 */
export async function storeOutboundFiles(tx: Executor, projectId: string, files: OutboundFile[]): Promise<StoredBlob[]> {
  const out: StoredBlob[] = [];
  for (const f of files) {
    const blobKey = await putMailBlob(projectId, f.bytes, f.contentType);
    discardOnRollback(tx, blobKey);
    out.push({ name: f.name, contentType: f.contentType, sizeBytes: f.bytes.byteLength, blobKey, contentId: null, inline: false });
  }
  return out;
}
