import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { authorizeStream } from "@/lib/http/stream/authorize-stream";
import { sseResponse } from "@/lib/http/stream/sse-response";
import { onMailEvents } from "@/lib/mail/events/mail-events-channel";

export const MAIL_STREAM_PATH = "/api/v1/mail/stream";

/**
 * `GET /api/v1/mail/stream`, Server-Sent Events: one `mail` message (the mailbox id only, never content) each time a
 * mailbox of the project has new mail events, from the `brynth_mail_events` notices. The Mailboxes screens refresh
 * on it and read what changed themselves, so a notice cannot leak a message to a page that may not see it.
 */
export async function handleMailStream(req: ApiRequest): Promise<Response> {
  try {
    const projectId = await authorizeStream(req, "message_read", "The mail stream");
    return sseResponse(req.signal, (send) =>
      onMailEvents((c) => {
        if (c.project === projectId) send("mail", { mailbox: c.mailbox });
      }),
    );
  } catch (err) {
    return errorResponse(err);
  }
}
