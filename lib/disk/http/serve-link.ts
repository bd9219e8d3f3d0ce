import { and, eq, sql } from "drizzle-orm";
import type { ApiRequest } from "@/lib/http/api-request";
import { getDb } from "@/lib/db/client";
import { diskLinks, type DiskLink } from "@/lib/db/schema/disk";
import { query } from "@/lib/db/statement";
import { safeEqual } from "@/lib/crypto/hash";
import { AppError } from "@/lib/errors";
import { linkSignature } from "@/lib/disk/blob-urls";
import { gone } from "@/lib/disk/http/responses";
import { sendFile } from "@/lib/disk/http/send-file";
import { at } from "@/lib/disk/sql-time";

type LinkRow = Pick<DiskLink, "projectId" | "blobKey" | "path" | "sizeBytes" | "contentType"> & { live: boolean };

/**
 * GET /blob/link/<link_id>/<signature>: a file_url link. Served only while the link is unexpired and unrevoked,
 * the exact file version (or attachment) it was made for still exists, and the key that asked is not revoked.
 */
export async function serveLink(req: ApiRequest, linkId: string, signature: string): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") throw new AppError("method_not_allowed", "Links take GET only.");
  if (!safeEqual(signature, linkSignature(linkId))) throw gone("This link");
  const db = await getDb();
  const [link] = await query<LinkRow>(
    db,
    sql`select l.project_id, l.blob_key, l.path, l.size_bytes, l.content_type,
          (l.revoked_at is null and l.expires_at > ${at()}
           and (l.key_id is null or exists (select 1 from api_keys k where k.project_id = l.project_id and k.id = l.key_id and k.revoked_at is null))
           and case when l.file_id is not null
                 then exists (select 1 from disk_files f where f.project_id = l.project_id and f.id = l.file_id)
                 else exists (select 1 from disk_attachments a where a.project_id = l.project_id
                              and a.event_id = l.event_id and a.name = l.attachment_name and a.blob_key = l.blob_key)
               end) as live
        from disk_links l where l.id = ${linkId}`,
  );
  if (!link?.live) throw gone("This link");
  const file = {
    projectId: link.projectId,
    blobKey: link.blobKey,
    name: link.path.slice(link.path.lastIndexOf("/") + 1),
    contentType: link.contentType,
    sizeBytes: link.sizeBytes,
  };
  return sendFile(req, file, "This link", async (tx) => {
    await tx
      .update(diskLinks)
      .set({ downloads: sql`${diskLinks.downloads} + 1` })
      .where(and(eq(diskLinks.projectId, link.projectId), eq(diskLinks.id, linkId)));
  });
}
