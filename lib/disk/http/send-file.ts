import { getDb, type Tx } from "@/lib/db/client";
import type { ApiRequest } from "@/lib/http/api-request";
import { AppError } from "@/lib/errors";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { countDownload } from "@/lib/disk/usage";
import { fileHeaders, gone } from "@/lib/disk/http/responses";

export interface Servable {
  projectId: string;
  blobKey: string;
  name: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * Streams one object as an attachment. A GET counts its size toward the project's 5 GB a month before the first
 * byte (QUOTA_EXCEEDED when it would go over); `also` runs in that same transaction (a link's download counter).
 */
export async function sendFile(req: ApiRequest, f: Servable, what: string, also?: (tx: Tx) => Promise<void>): Promise<Response> {
  const headers = fileHeaders(f);
  if (req.method === "HEAD") return new Response(null, { status: 200, headers });
  const object = await (await getBlobStore()).get(f.blobKey);
  if (!object) throw gone(what);
  const db = await getDb();
  const counted = await db.transaction(async (tx) => {
    if (!(await countDownload(tx, f.projectId, f.sizeBytes))) return false;
    await also?.(tx);
    return true;
  });
  if (!counted) {
    await object.body.cancel().catch(() => {});
    // When to come back, as the mail quota says it: a client's retry before then is refused the same way.
    const now = new Date();
    const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    throw new AppError("QUOTA_EXCEEDED", "This project has used its 5 GB of downloads this month.", {
      fix: `Downloads reset on the first of the month (UTC), ${resetsAt.toISOString()}; the owner can see usage on the Disk screen.`,
      details: { period: "month", resets_at: resetsAt.toISOString() },
      headers: { "Retry-After": String(Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)) },
    });
  }
  return new Response(object.body, { status: 200, headers });
}
