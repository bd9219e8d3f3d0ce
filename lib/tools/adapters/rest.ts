import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { clientIp, isAllowedOrigin } from "@/lib/http/request-info";
import { preflight, withCors } from "@/lib/http/cors";
import { authenticateKey } from "@/lib/keys/authenticate-key";
import { keyActor } from "@/lib/keys/key-actor";
import { refuseUnstorableArgs } from "@/lib/owner-api/define-owner-route";
import { authenticateOwnerRequest, carriesOwnerCredential, ownerPrincipal } from "@/lib/auth/owner-principal";
import type { Actor } from "@/lib/actor";
import { takeCallToken } from "@/lib/keys/call-rate-limit";
import { routeActor } from "@/lib/owner-api/route-actor";
import { parseOrThrow } from "@/lib/validation";
import { runTool } from "@/lib/tools/run-tool";
import { toolView } from "@/lib/tools/casing/tool-casing";
import { matchRoute } from "@/lib/tools/adapters/rest-routes";
import { restArgs } from "@/lib/tools/adapters/rest-args";
import { etagHeader, ifMatchArgs } from "@/lib/tools/adapters/rest-etag";
import { idempotencyArgs } from "@/lib/tools/adapters/rest-idempotency";
import { openApiBytes } from "@/lib/tools/adapters/openapi";
import { ledgeredTransaction } from "@/lib/ledger/ledgered-transaction";
import { errorResponse, jsonBytesResponse, jsonResponse, jsonTextResponse } from "@/lib/http/json-response";

export const API_PREFIX = "/api/v1";

/** REST under /api/v1, dispatched from the registry: one wrapper for auth, scope and error rendering. */
export async function handleRest(req: ApiRequest): Promise<Response> {
  if (req.method === "OPTIONS") return preflight(req, "GET, POST, PUT, PATCH, DELETE");
  return withCors(req, await serveRest(req));
}

async function serveRest(req: ApiRequest): Promise<Response> {
  try {
    const url = new URL(req.url);
    const path = url.pathname.slice(API_PREFIX.length) || "/";
    if (req.method === "GET" && path === "/openapi.json") return jsonBytesResponse(200, openApiBytes());
    if (req.method !== "GET" && !isAllowedOrigin(req.headers.get("origin"))) {
      throw new AppError("forbidden", "Origin not allowed.", { fix: "Call the API from an allowed origin." });
    }
    const { route, params, pathMatched } = matchRoute(req.method, path);
    if (!route) {
      if (pathMatched) throw new AppError("method_not_allowed", `${req.method} is not allowed on ${path}.`);
      throw new AppError("not_found", `No API route ${req.method} ${path}.`, { fix: "See GET /api/v1/openapi.json." });
    }
    if (route.kind === "tool") {
      const actor = await toolActor(req);
      const args = idempotencyArgs(
        req,
        route.tool,
        ifMatchArgs(req, route.tool, await restArgs(req, url, toolView(route.tool, "rest").input, params!, route.tool.rest.body)),
      );
      const { output, text, value } = await runTool(route.tool, actor, args, req.signal);
      if (route.tool.rest.respond) return await route.tool.rest.respond(value, { actor, method: req.method });
      return jsonTextResponse(200, text, etagHeader(route.tool, output));
    }
    const { owner, sessionId } = await authenticateOwnerRequest(req, "owner REST");
    const db = await getDb();
    // A route on one project (`/projects/{project_id}`) acts on that one; the others on the header's.
    const actor = await routeActor(db, owner, route.route, params?.project_id, req.headers.get("x-brynth-project"));
    const args = await restArgs(req, url, route.route.input, params!);
    refuseUnstorableArgs(args);
    const input = parseOrThrow(route.route.input, args);
    const { op, ledgerInput, ledgerOutput } = route.route;
    const call = { actor, op, input: ledgerInput ? ledgerInput(input) : input, output: ledgerOutput };
    const prepared = await route.route.prepare?.({ actor, db }, input);
    const out = await ledgeredTransaction(db, call, (tx, entry) =>
      route.route.handler(Object.assign(entry, { actor, owner, db: tx, sessionId, prepared }), input),
    );
    const { respond } = route.route.rest;
    return respond ? respond(out, { actor, db, input }) : jsonResponse(route.route.status ?? 200, out);
  } catch (err) {
    return errorResponse(err);
  }
}

/**
 * Who calls a tool over REST: an API key (`Bearer brk_live_…`, its scopes and mailbox), or the owner's own
 * credentials (HTTP Basic, or the dashboard cookie from our own origin), acting as in the dashboard on the project of
 * X-Brynth-Project (lib/auth/owner-principal.ts, shared with /mcp). OAuth tokens stay /mcp's (authenticateKey refuses
 * them). runTool counts a key's calls; the owner's are counted here, in a bucket of the owner's id (as /mcp does).
 */
async function toolActor(req: ApiRequest): Promise<Actor> {
  if (!carriesOwnerCredential(req)) return keyActor(await authenticateKey(req.headers.get("authorization"), clientIp(req)), req.headers, "rest");
  const { owner, actor } = await ownerPrincipal(req, "rest", "the REST API");
  takeCallToken(owner.id);
  return actor;
}
