import { BLOB_PREFIX } from "@/lib/disk/blob-urls";
import type { ApiRequest } from "@/lib/http/api-request";
import { blobErrorResponse } from "@/lib/disk/http/responses";
import { serveDownload } from "@/lib/disk/http/serve-download";
import { serveLink } from "@/lib/disk/http/serve-link";
import { serveUpload } from "@/lib/disk/http/serve-upload";
import { AppError } from "@/lib/errors";

/**
 * Brynth's blob URLs, one fetch-style handler: server.ts serves it on the fast path and app/blob/[...path] exports
 * it for every other way in. Each URL carries its own signed credential; no cookie or key is read.
 *   PUT  /blob/upload/<token>            local-store upload (file_put upload_url)
 *   GET  /blob/download/<token>          5-minute download (file_get download_url)
 *   GET  /blob/link/<link_id>/<sig>      public link (file_url)
 */
export async function handleBlob(req: ApiRequest): Promise<Response> {
  try {
    const parts = new URL(req.url).pathname.slice(BLOB_PREFIX.length + 1).split("/");
    if (parts[0] === "upload" && parts.length === 2) return await serveUpload(req, parts[1]);
    if (parts[0] === "download" && parts.length === 2) return await serveDownload(req, parts[1]);
    if (parts[0] === "link" && parts.length === 3) return await serveLink(req, parts[1], parts[2]);
    throw new AppError("not_found", "No such blob URL.");
  } catch (err) {
    return blobErrorResponse(err);
  }
}
