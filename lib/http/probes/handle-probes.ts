import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse, jsonResponse } from "@/lib/http/json-response";
import { AppError } from "@/lib/errors";
import { readiness } from "@/lib/services/readiness";

export const LIVE_PATH = "/healthz";
export const READY_PATH = "/readyz";

/** An orchestrator addresses an instance by its own IP, a Host no configuration names; the probes tell nothing else. */
export const isProbePath = (path: string) => path === LIVE_PATH || path === READY_PATH;

const NO_STORE = { "cache-control": "no-store" };
const getOnly = (req: ApiRequest) => (req.method === "GET" || req.method === "HEAD" ? null : errorResponse(new AppError("method_not_allowed", "Use GET.")));

/** Liveness: the process answers. Still 200 while it drains, so nothing kills an instance finishing its requests. */
export async function handleLive(req: ApiRequest): Promise<Response> {
  return getOnly(req) ?? jsonResponse(200, { status: "ok" }, NO_STORE);
}

/** Readiness (readiness.ts): 200 when this instance should get traffic, else 503 with what is missing. */
export async function handleReady(req: ApiRequest): Promise<Response> {
  const refused = getOnly(req);
  if (refused) return refused;
  const ready = await readiness();
  return jsonResponse(ready.status === "ready" ? 200 : 503, ready, NO_STORE);
}
