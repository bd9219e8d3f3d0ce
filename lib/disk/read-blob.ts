import { getBlobStore } from "@/lib/blob/get-blob-store";
import { AppError } from "@/lib/errors";

/** The whole object (small files only). A row whose object is gone is a store fault, not the caller's. */
export async function readBlob(blobKey: string): Promise<Uint8Array> {
  const found = await (await getBlobStore()).get(blobKey);
  if (!found) {
    throw new AppError("service_unavailable", "The file's content is missing from the blob store.", {
      fix: "Retry later; if it persists, the operator should check the storage configuration.",
    });
  }
  return new Uint8Array(await new Response(found.body).arrayBuffer());
}
