import { eq } from "drizzle-orm";
import type { ApiRequest } from "@/lib/http/api-request";
import { getDb } from "@/lib/db/client";
import { diskUploads } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { BlobSizeError } from "@/lib/blob/store";
import { unseal } from "@/lib/disk/blob-urls";
import { uploadGone } from "@/lib/disk/drop-uploads";
import { blobErrorResponse } from "@/lib/disk/http/responses";

/** The token is the only credential and no cookie is involved, so any origin may PUT (the dashboard included). */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "PUT, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "600",
};

const bad = (message: string, fix: string) => new AppError("bad_request", message, { fix });

/**
 * PUT /blob/upload/<token>: the local store's stand-in for a presigned S3 PUT. Streams the body into the store
 * (never buffered whole), refusing another Content-Type or size than announced, as S3 does for signed headers.
 */
export async function serveUpload(req: ApiRequest, token: string): Promise<Response> {
  if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  try {
    if (req.method !== "PUT") throw new AppError("method_not_allowed", "Upload URLs take PUT only.");
    const claim = unseal<{ u: string }>("disk-upload", token);
    if (!claim) throw new AppError("forbidden", "This upload URL is invalid or has expired.", { fix: "Start a new upload with file_put." });
    const db = await getDb();
    const findUpload = async () => (await db.select().from(diskUploads).where(eq(diskUploads.id, claim.u)))[0];
    const upload = await findUpload();
    if (!upload || upload.expiresAt <= new Date()) throw uploadGone(claim.u);
    const type = req.headers.get("content-type") ?? "";
    if (type.toLowerCase() !== upload.contentType.toLowerCase()) {
      throw bad(`Content-Type must be ${upload.contentType}.`, "Send exactly the upload_headers file_put returned.");
    }
    const declared = req.headers.get("content-length");
    if (declared !== null && Number(declared) !== upload.sizeBytes) {
      throw bad(`This upload is for exactly ${upload.sizeBytes} bytes, not ${declared}.`, "PUT the file whose size you announced, or start a new upload.");
    }
    const store = await getBlobStore();
    try {
      await store.put(upload.blobKey, req.body ?? new Uint8Array(), { size: upload.sizeBytes, contentType: upload.contentType });
    } catch (err) {
      if (err instanceof BlobSizeError) throw bad(`The body was ${err.message}.`, "PUT exactly the announced number of bytes.");
      throw err;
    }
    // Dropped while the bytes were arriving (the path was written, or it expired and was swept): keep nothing.
    if (!(await findUpload())) {
      await store.delete(upload.blobKey).catch(() => {});
      throw uploadGone(claim.u);
    }
    return new Response(null, { status: 200, headers: CORS });
  } catch (err) {
    return blobErrorResponse(err, CORS);
  }
}
