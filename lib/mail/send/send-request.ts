import type { DraftKind } from "@/lib/db/schema/mail-send";
import type { StoredBlob } from "@/lib/mail/inbound/store-inbound";
import type { OutboundItem } from "@/lib/mail/outbound/queue-message";
import type { AttachmentInput } from "@/lib/mail/send/attachment-input";

/** Everything one send (or one draft) says: recipients, content, files and, for a reply, its thread. */
export interface SendRequest {
  kind: DraftKind;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  text: string | null;
  html: string | null;
  labels: string[];
  headers: Record<string, string>;
  /** New files, read by the send (inline base64 or a path). */
  attachments: AttachmentInput[];
  /** Files already in the blob store (a forward's originals, a draft's): re-attached by reference, never copied. */
  kept: StoredBlob[];
  thread: OutboundItem["thread"];
  /** Without a thread: the References a plain draft was given (create_draft `references`), sent as they are. */
  references?: string[];
  inReplyToMessageId: string | null;
  forwardOfMessageId: string | null;
  replyAll: boolean;
}

/** Each recipient with the field that named it (`to.0`, `cc.2`), for errors. */
export function recipientFields(r: Pick<SendRequest, "to" | "cc" | "bcc">): Array<{ field: string; address: string }> {
  return (["to", "cc", "bcc"] as const).flatMap((f) => r[f].map((address, i) => ({ field: `${f}.${i}`, address })));
}
