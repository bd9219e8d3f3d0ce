import { findOwnerAttachment } from "@/components/mailboxes/owner-mail-reads";
import { currentOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { unstorableText } from "@/lib/db/storable";
import { fileHeaders } from "@/lib/disk/http/responses";
import { readMailBlob } from "@/lib/mail/mail-blob";

/**
 * GET /mail/<inbox>/attachments/<attachment>: the owner's download of a mail attachment (dashboard session). Always
 * `Content-Disposition: attachment`, never sniffed and CSP-sandboxed (fileHeaders), so a hostile HTML or SVG file
 * is saved, never rendered in Brynth's origin.
 */
export async function GET(_req: Request, { params }: { params: Promise<{ inbox: string; attachment: string }> }): Promise<Response> {
  const ctx = await currentOwner();
  if (!ctx) return new Response("Sign in first.", { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } });
  const { inbox, attachment } = await params;
  // Text no row can hold (a NUL) names nothing: it failed the query as a 500.
  const named = unstorableText(inbox) === null && unstorableText(attachment) === null;
  const found = named ? await findOwnerAttachment(await getDb(), { projectId: ctx.actor.projectId, mailboxId: inbox, attachmentId: attachment }) : null;
  if (!found) return new Response("Not found.", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const bytes = await readMailBlob(found.blobKey);
  const name = found.name.slice(found.name.lastIndexOf("/") + 1);
  return new Response(new Uint8Array(bytes), { status: 200, headers: fileHeaders({ name, contentType: found.contentType, sizeBytes: bytes.byteLength }) });
}
