import { eq } from "drizzle-orm";
import type { ApiRequest } from "@/lib/http/api-request";
import { getDb } from "@/lib/db/client";
import { diskFiles } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { unseal } from "@/lib/disk/blob-urls";
import { findAttachment } from "@/lib/disk/read-attachment";
import { gone } from "@/lib/disk/http/responses";
import { sendFile, type Servable } from "@/lib/disk/http/send-file";

/**
 * GET /blob/download/<token>: file_get's 5-minute URL. Bound to one file version: once the path is replaced or
 * deleted the URL answers 404 even before it expires, so it never serves other bytes than the ones it was made for.
 */
export async function serveDownload(req: ApiRequest, token: string): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") throw new AppError("method_not_allowed", "Download URLs take GET only.");
  const claim = unseal<{ f?: string; a?: [string, string, string] }>("disk-download", token);
  if (!claim) throw gone("This download URL");
  const db = await getDb();
  let servable: Servable | null = null;
  if (claim.f) {
    const [file] = await db.select().from(diskFiles).where(eq(diskFiles.id, claim.f));
    if (file) servable = { ...file, name: file.path.slice(file.path.lastIndexOf("/") + 1) };
  } else if (claim.a) {
    const [projectId, eventId, name] = claim.a;
    const found = await findAttachment(db, { projectId, eventId, name });
    if (found) servable = found;
  }
  if (!servable) throw gone("This download URL");
  return sendFile(req, servable, "This download URL");
}
