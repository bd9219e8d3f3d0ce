import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import type { AttachmentClaim } from "@/lib/mail/attachments/attachment-url";

export interface GrantedAttachment {
  projectId: string;
  blobKey: string;
  name: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * The attachment a capability names, only if its issuer may still read it now: the API key (or the OAuth grant, whose
 * id an agent connected with a token acts under) is not revoked, still holds `message_read`, and its mailbox
 * restriction (as it is now) covers the attachment's mailbox, which still exists; or the owner's session it was
 * issued under has not ended. One statement, so the answer is one consistent snapshot. Null otherwise, whatever the
 * reason.
 */
export async function grantedAttachment(db: Executor, claim: AttachmentClaim): Promise<GrantedAttachment | null> {
  const issuer =
    claim.keyId === null
      ? claim.sessionId === null
        ? sql`true`
        : sql`exists (select 1 from owner_sessions s join projects p on p.owner_id = s.owner_id
                      where s.id = ${claim.sessionId} and p.id = a.project_id and s.revoked_at is null and s.expires_at > now())`
      : sql`(exists (select 1 from api_keys k
                     where k.project_id = a.project_id and k.id = ${claim.keyId} and k.revoked_at is null
                       and k.scopes @> '["message_read"]'::jsonb
                       and (k.mailbox_id is null or k.mailbox_id = m.mailbox_id))
             or exists (select 1 from oauth_grants g
                        where g.project_id = a.project_id and g.id = ${claim.keyId} and g.revoked_at is null
                          and g.scopes @> '["message_read"]'::jsonb
                          and (g.mailbox_id is null or g.mailbox_id = m.mailbox_id)))`;
  const [row] = await query<GrantedAttachment>(
    db,
    sql`select a.project_id, a.blob_key, a.name, a.content_type, a.size_bytes
        from mail_attachments a
        join mail_messages m on m.project_id = a.project_id and m.id = a.message_id
        join mailboxes b on b.project_id = m.project_id and b.id = m.mailbox_id and b.deleted_at is null
        where a.project_id = ${claim.projectId} and a.id = ${claim.attachmentId} and ${issuer}`,
  );
  return row ?? null;
}
