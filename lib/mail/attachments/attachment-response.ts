import { getBlobStore } from "@/lib/blob/get-blob-store";
import { fileHeaders } from "@/lib/disk/http/responses";
import { AppError } from "@/lib/errors";

/**
 * Mail bytes from the blob store as a download: always `Content-Disposition: attachment`, never sniffed, under a
 * CSP sandbox (fileHeaders), so an HTML or SVG attachment from a stranger cannot run in Brynth's origin.
 */
export async function attachmentResponse(f: { blobKey: string; name: string; contentType: string; sizeBytes: number }, method = "GET"): Promise<Response> {
  const headers = fileHeaders(f);
  if (method === "HEAD") return new Response(null, { status: 200, headers });
  const object = await (await getBlobStore()).get(f.blobKey);
  if (!object) throw new AppError("NOT_FOUND", "The stored bytes of this item are gone.", { fix: "The message may have been deleted; list it again." });
  // The store knows the exact length; a row's size (a raw message's, counted on arrival) is only a record of it.
  return new Response(object.body, { status: 200, headers: { ...headers, "content-length": String(object.size) } });
}
