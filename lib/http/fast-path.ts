import type { IncomingMessage, ServerResponse } from "node:http";
import { FOREIGN_ACTION_BODY, isForeignServerAction } from "@/lib/http/action-origin";
import { hostProblem } from "@/lib/http/host-check";
import { errorResponse } from "@/lib/http/json-response";
import { sendWebResponse } from "@/lib/http/node-adapter";
import { nodeRequest } from "@/lib/http/node-request";
import { requestPathProblem } from "@/lib/http/path-guard";
import { isProbePath } from "@/lib/http/probes/handle-probes";
import { findRoute } from "@/lib/http/routes";
import { preparePageSecurity, setBaseSecurityHeaders } from "@/lib/http/security-headers";

/**
 * The route table's paths (routes.ts), served by server.ts straight from their handlers (ARCHITECTURE §2: one
 * handler, two ways in). Returns false for every other path, which goes to Next. Runs first for every request, so
 * it also refuses a Host we do not serve (host-check.ts; the health probes answer any, handle-probes.ts), a
 * malformed path (path-guard.ts) and a cross-origin server action (action-origin.ts) for Next's pages before Next
 * reads them, and sets every response's security headers (security-headers.ts: a page's CSP with its nonce, for
 * Next to read).
 */
export function fastPathHandler(origin: string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    setBaseSecurityHeaders(res, path);
    const problem = (isProbePath(path) ? null : hostProblem(req.headers)) ?? requestPathProblem(path);
    if (problem) {
      sendWebResponse(res, errorResponse(problem), req).catch(() => res.destroy());
      return true;
    }
    const found = findRoute(path);
    if (!found) {
      if (isForeignServerAction(req)) {
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(FOREIGN_ACTION_BODY);
        return true;
      }
      preparePageSecurity(req, res);
      return false;
    }
    nodeRequest(req, res, origin)
      .then((r) => found.route.handler(r, found.params))
      .then((response) => sendWebResponse(res, response, req))
      .catch((err) => {
        if (req.destroyed && res.destroyed) return; // the client went away while sending its body
        if (res.headersSent) return void res.end();
        sendWebResponse(res, errorResponse(err), req).catch(() => res.destroy());
      });
    return true;
  };
}
