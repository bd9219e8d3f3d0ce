import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { env, type Env } from "@/lib/env";

/**
 * Pages whose URL is a capability (a token in the path or query): no Referer may carry it to another site. Not
 * `no-referrer`: under it browsers send `Origin: null` with the page's own form POST, which the decide and verify
 * handlers (and Next's server actions) then refuse as foreign.
 */
const CAPABILITY_PAGES = ["/decide/", "/verify/", "/setup"];

/** Features the dashboard never uses, off for it and for anything that would frame it. */
const PERMISSIONS = "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()";

export const isCapabilityPath = (path: string) => CAPABILITY_PAGES.some((p) => path.startsWith(p));

/** The headers every response carries, whatever serves it (fast path or Next). */
export function baseSecurityHeaders(opts: { https: boolean; capability: boolean }): [string, string][] {
  const headers: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", opts.capability ? "same-origin" : "strict-origin-when-cross-origin"],
    ["Permissions-Policy", PERMISSIONS],
  ];
  // No includeSubDomains: a self-hosted instance does not speak for its parent domain's other hosts.
  if (opts.https) headers.push(["Strict-Transport-Security", "max-age=31536000"]);
  return headers;
}

/**
 * The Content-Security-Policy of a page Next renders. Scripts run by the per-request nonce, which Next puts on its
 * own scripts, and what they load ('strict-dynamic'); 'self' is the fallback of browsers without it. Styles allow
 * 'unsafe-inline': Radix positions its popovers and recharts draws its charts with style attributes, which no nonce
 * can cover, and a style cannot run code. React refresh evaluates code, so 'unsafe-eval' only in development.
 */
export function pageCsp(nonce: string, opts: { dev: boolean; publicUrl: string }): string {
  const ws = opts.publicUrl.replace(/^http/, "ws");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // The live stream (SSE is 'self'; its WebSocket twin is named, as older browsers do not count ws: as 'self').
    `connect-src 'self' ${ws}${opts.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const newNonce = () => randomBytes(16).toString("base64");

const cache = new WeakMap<Env, { plain: [string, string][]; capability: [string, string][] }>();

/** Sets the base headers on a response; a handler's own headers of the same name (writeHead) still win. */
export function setBaseSecurityHeaders(res: ServerResponse, path: string) {
  const e = env();
  let sets = cache.get(e);
  if (!sets) {
    const https = e.publicUrl.startsWith("https:");
    sets = { plain: baseSecurityHeaders({ https, capability: false }), capability: baseSecurityHeaders({ https, capability: true }) };
    cache.set(e, sets);
  }
  const headers = isCapabilityPath(path) ? sets.capability : sets.plain;
  for (const [name, value] of headers) res.setHeader(name, value);
}

/**
 * Before Next renders: a fresh nonce in the request's CSP header, which is where Next reads it from
 * (getScriptNonceFromHeaders), and the same policy on the response. A client's own CSP request headers are
 * replaced, or it could choose the nonce.
 */
export function preparePageSecurity(req: IncomingMessage, res: ServerResponse) {
  const e = env();
  const csp = pageCsp(newNonce(), { dev: e.NODE_ENV === "development", publicUrl: e.publicUrl });
  req.headers["content-security-policy"] = csp;
  delete req.headers["content-security-policy-report-only"];
  res.setHeader("Content-Security-Policy", csp);
}
