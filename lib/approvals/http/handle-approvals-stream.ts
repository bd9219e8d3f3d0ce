import { onRequestChange } from "@/lib/approvals/requests-channel";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { streamActor } from "@/lib/http/stream/authorize-stream";
import { watchCredentialEnd } from "@/lib/auth/credential-ends";
import { takeStreamSlot } from "@/lib/http/stream/stream-slots";
import { sseResponse } from "@/lib/http/stream/sse-response";

export const APPROVALS_STREAM_PATH = "/api/v1/approvals/stream";

/**
 * `GET /api/v1/approvals/stream`, Server-Sent Events: one `request` message per request created or decided in the
 * project (id and status only), fanned out from the process's one LISTEN. The Approvals screen refreshes on it.
 * A stream ends when its credential does (a key revoked, the owner's session ended).
 */
export async function handleApprovalsStream(req: ApiRequest): Promise<Response> {
  try {
    const actor = await streamActor(req, ["approvals"], "the approvals stream");
    const release = takeStreamSlot(actor);
    return sseResponse(req.signal, async (send, close) => {
      const stop = await onRequestChange((c) => {
        if (c.project === actor.projectId) send("request", { id: c.id, status: c.status });
      }).catch((err) => {
        release();
        throw err;
      });
      // The stream outlives the request that authenticated it: an ended credential stops reading at once (§7).
      const unwatch = watchCredentialEnd(actor, (reason) => close(1008, reason));
      return () => {
        unwatch();
        stop();
        release();
      };
    });
  } catch (err) {
    return errorResponse(err);
  }
}
