import { onEventChange } from "@/lib/events/events-channel";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { authorizeStream } from "@/lib/http/stream/authorize-stream";
import { sseResponse } from "@/lib/http/stream/sse-response";

export const STREAM_PATH = "/api/v1/stream";

/**
 * `GET /api/v1/stream` as Server-Sent Events: one `event` message per event change in the project (id, source,
 * type, status; never payloads), fanned out from the process's single LISTEN. Browsers use EventSource with the
 * dashboard cookie; scripts and curl use an API key.
 */
export async function handleStream(req: ApiRequest): Promise<Response> {
  try {
    const projectId = await authorizeStream(req, "inbox:read", "The event stream");
    return sseResponse(req.signal, (send) =>
      onEventChange((c) => {
        if (c.project === projectId) send("event", { id: c.id, source: c.source, type: c.type, status: c.status });
      }),
    );
  } catch (err) {
    return errorResponse(err);
  }
}
