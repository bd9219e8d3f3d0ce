import type { IncomingMessage, ServerResponse } from "node:http";
import { handleMcp } from "@/lib/tools/adapters/mcp";
import { handleRest, API_PREFIX } from "@/lib/tools/adapters/rest";
import { sendWebResponse, toWebRequest } from "@/lib/http/node-adapter";
import { handleBlob } from "@/lib/disk/http/handle-blob";
import { handleHook, HOOKS_PREFIX } from "@/lib/http/intake/handle-hook";
import { handleStream } from "@/lib/http/stream/handle-stream";
import { APPROVALS_STREAM_PATH, handleApprovalsStream } from "@/lib/approvals/http/handle-approvals-stream";
import { handleTelegramWebhook } from "@/lib/telegram/http/handle-telegram-webhook";
import { TELEGRAM_HOOK_PREFIX } from "@/lib/telegram/bot-mode";

/**
 * The hot API paths, served by server.ts straight from the same fetch-style handlers the route files export
 * (ARCHITECTURE §2: one handler, two ways in). Returns false for everything else, which goes to Next.
 */
export function fastPathHandler(origin: string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? "/").split("?")[0];
    let handler: ((r: Request) => Promise<Response>) | undefined;
    if (path === "/mcp") handler = handleMcp;
    else if (path === `${API_PREFIX}/stream`) handler = handleStream;
    else if (path === APPROVALS_STREAM_PATH) handler = handleApprovalsStream;
    else if (path.startsWith(`${API_PREFIX}/`)) handler = handleRest;
    else if (path.startsWith(HOOKS_PREFIX)) handler = handleHook;
    else if (path.startsWith("/blob/")) handler = handleBlob;
    else if (path.startsWith(TELEGRAM_HOOK_PREFIX)) handler = handleTelegramWebhook;
    if (!handler) return false;
    toWebRequest(req, res, origin)
      .then(handler)
      .then((response) => sendWebResponse(res, response, req))
      .catch((err) => {
        if (req.destroyed && res.destroyed) return; // the client went away while sending its body
        console.error("[brynth] unhandled error on", path, err);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { name: "InternalError", code: "internal_error", message: "Something went wrong on the server." } }));
      });
    return true;
  };
}

/** The client address, from the socket only: a header of that name sent by a client is dropped first. */
export function stampRemoteAddress(req: IncomingMessage) {
  req.headers["x-brynth-remote-address"] = req.socket.remoteAddress ?? "unknown";
}
