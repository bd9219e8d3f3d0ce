import { putMailBlob } from "@/lib/mail/mail-blob";
import type { StoredBlob } from "@/lib/mail/inbound/store-inbound";
import type { OutboundFile } from "@/lib/mail/outbound/resolve-attachments";

/** One blob per attachment for a whole batch: its messages' attachment rows share them. */
export async function storeOutboundFiles(projectId: string, files: OutboundFile[]): Promise<StoredBlob[]> {
  const out: StoredBlob[] = [];
  for (const f of files) {
    out.push({
      name: f.name,
      contentType: f.contentType,
      sizeBytes: f.bytes.byteLength,
      blobKey: await putMailBlob(projectId, f.bytes, f.contentType),
      contentId: null,
      inline: false,
    });
  }
  return out;
}
