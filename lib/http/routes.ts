import { postEmailDecision } from "@/lib/approvals/http/post-email-decision";
import { APPROVALS_STREAM_PATH, handleApprovalsStream } from "@/lib/approvals/http/handle-approvals-stream";
import { postVerify } from "@/lib/channels/http/post-verify";
import { BLOB_PREFIX } from "@/lib/disk/blob-urls";
import { handleBlob } from "@/lib/disk/http/handle-blob";
import { AppError } from "@/lib/errors";
import { PAYLOAD_PATH } from "@/lib/events/payload-url";
import type { ApiHandler, ApiRequest } from "@/lib/http/api-request";
import { handleHook, HOOKS_PREFIX } from "@/lib/http/intake/handle-hook";
import { servePayload } from "@/lib/http/intake/serve-payload";
import { errorResponse } from "@/lib/http/json-response";
import { requestPathProblem } from "@/lib/http/path-guard";
import { handleStream, STREAM_PATH } from "@/lib/http/stream/handle-stream";
import { handleLive, handleReady, LIVE_PATH, READY_PATH } from "@/lib/http/probes/handle-probes";
import { MAIL_HTML_PREFIX } from "@/lib/mail/http/mail-html-url";
import { serveMailHtml } from "@/lib/mail/http/serve-mail-html";
import { MAIL_ATTACHMENT_PREFIX } from "@/lib/mail/attachments/attachment-url";
import { serveMailAttachment } from "@/lib/mail/attachments/serve-mail-attachment";
import { TELEGRAM_HOOK_PREFIX } from "@/lib/telegram/bot-mode";
import { handleTelegramWebhook } from "@/lib/telegram/http/handle-telegram-webhook";
import { handleMcp } from "@/lib/tools/adapters/mcp";
import { API_PREFIX, handleRest } from "@/lib/tools/adapters/rest";
import {
  AS_METADATA_PATH,
  handleAuthorizationServer,
  handleOpenidConfiguration,
  handleProtectedResource,
  OPENID_PATH,
  PRM_PATH,
} from "@/lib/oauth/http/handle-well-known";
import { AUTHORIZE_PATH, handleAuthorize } from "@/lib/oauth/http/handle-authorize";
import { handleRegister, REGISTER_PATH } from "@/lib/oauth/http/handle-register";
import { handleRevoke, REVOKE_PATH } from "@/lib/oauth/http/handle-revoke";
import { handleToken, TOKEN_PATH } from "@/lib/oauth/http/handle-token";

export interface Route {
  /** Literal segments, `:name` for one segment (a param), or a trailing `*` for the rest of the path. */
  path: string;
  handler: ApiHandler;
  /** The Next route file that serves this path for every way in but the fast path (`next dev`, tests of Next). */
  next: string;
}

/**
 * Every HTTP path Brynth serves outside Next's pages, declared once (ARCHITECTURE §5a). server.ts's fast path
 * dispatches from this table before Next sees the request, and each route file named here exports `nextRoute`'s
 * handlers, which dispatch from the same table. The first entry that matches wins. A handler receives every method
 * and refuses the ones it does not serve itself, so both ways in answer a wrong method alike.
 */
export const routes: readonly Route[] = [
  { path: "/mcp", handler: handleMcp, next: "app/mcp/route.ts" },
  { path: LIVE_PATH, handler: handleLive, next: "app/healthz/route.ts" },
  { path: READY_PATH, handler: handleReady, next: "app/readyz/route.ts" },
  { path: STREAM_PATH, handler: handleStream, next: "app/api/v1/[...path]/route.ts" },
  { path: APPROVALS_STREAM_PATH, handler: handleApprovalsStream, next: "app/api/v1/[...path]/route.ts" },
  { path: `${API_PREFIX}/*`, handler: handleRest, next: "app/api/v1/[...path]/route.ts" },
  { path: `${PAYLOAD_PATH}*`, handler: servePayload, next: "app/hooks/[...path]/route.ts" },
  { path: `${HOOKS_PREFIX}*`, handler: handleHook, next: "app/hooks/[...path]/route.ts" },
  { path: `${BLOB_PREFIX}/*`, handler: handleBlob, next: "app/blob/[...path]/route.ts" },
  { path: `${TELEGRAM_HOOK_PREFIX}*`, handler: handleTelegramWebhook, next: "app/telegram/[...path]/route.ts" },
  { path: `${MAIL_HTML_PREFIX}:token`, handler: serveMailHtml, next: "app/mail-html/[token]/route.ts" },
  { path: `${MAIL_ATTACHMENT_PREFIX}:token`, handler: (req, p) => serveMailAttachment(req, p.token), next: "app/mail-attachment/[token]/route.ts" },
  { path: "/decide/:token/submit", handler: (req, p) => postEmailDecision(req, p.token), next: "app/decide/[token]/submit/route.ts" },
  { path: "/verify/:token/confirm", handler: (req, p) => postVerify(req, p.token), next: "app/verify/[token]/confirm/route.ts" },
  // OAuth 2.1 for /mcp (lib/oauth): discovery, registration, authorization, tokens.
  { path: PRM_PATH, handler: handleProtectedResource, next: "app/.well-known/oauth-protected-resource/route.ts" },
  { path: `${PRM_PATH}/mcp`, handler: handleProtectedResource, next: "app/.well-known/oauth-protected-resource/mcp/route.ts" },
  { path: AS_METADATA_PATH, handler: handleAuthorizationServer, next: "app/.well-known/oauth-authorization-server/route.ts" },
  { path: OPENID_PATH, handler: handleOpenidConfiguration, next: "app/.well-known/openid-configuration/route.ts" },
  { path: AUTHORIZE_PATH, handler: handleAuthorize, next: "app/oauth/authorize/route.ts" },
  { path: TOKEN_PATH, handler: handleToken, next: "app/oauth/token/route.ts" },
  { path: REGISTER_PATH, handler: handleRegister, next: "app/oauth/register/route.ts" },
  { path: REVOKE_PATH, handler: handleRevoke, next: "app/oauth/revoke/route.ts" },
];

const NO_PARAMS: Record<string, string> = Object.freeze({});
const matchers = routes.map((route) => ({ route, re: compile(route.path) }));

function compile(path: string): RegExp {
  const rest = path.endsWith("*");
  const segments = (rest ? path.slice(0, -1) : path).split("/");
  const body = segments.map((s) => (s.startsWith(":") ? `(?<${s.slice(1)}>[^/]+)` : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
  return new RegExp(`^${body}${rest ? ".*" : ""}$`);
}

/** The table's entry for a path (no query), with its params; undefined when the path is Next's (pages, assets). */
export function findRoute(path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const { route, re } of matchers) {
    const m = re.exec(path);
    if (m) return { route, params: m.groups ?? NO_PARAMS };
  }
  return undefined;
}

/**
 * What every route file named in the table exports for each method: the table's dispatch, given the fetch
 * `Request` Next hands it, which already is an ApiRequest.
 */
export function nextHandler(req: Request): Promise<Response> {
  return dispatch(req);
}

async function dispatch(req: ApiRequest): Promise<Response> {
  // Next has resolved dot segments by now; a malformed escape is still there.
  const path = new URL(req.url).pathname;
  const problem = requestPathProblem(path);
  if (problem) return errorResponse(problem);
  const found = findRoute(path);
  if (!found) return errorResponse(new AppError("not_found", "Not found."));
  return found.route.handler(req, found.params);
}

// What a route file of a table path re-exports: every method goes to the table's dispatch.
export {
  nextHandler as GET,
  nextHandler as HEAD,
  nextHandler as POST,
  nextHandler as PUT,
  nextHandler as PATCH,
  nextHandler as DELETE,
  nextHandler as OPTIONS,
};
