import type { IncomingHttpHeaders } from "node:http";
import { env, type Env } from "@/lib/env";
import type { HeaderReader } from "@/lib/http/api-request";
import { isTrustedProxy } from "@/lib/http/trusted-proxy";
import { remoteAccess, type RemoteAccess } from "@/lib/settings/remote-access";
import { AppError } from "@/lib/errors";

interface Allowed {
  source: Env;
  access: RemoteAccess;
  /** Names served on any port: the public URL's and PUBLIC_URL's hosts, and ALLOWED_HOSTS entries without a port. */
  names: Set<string>;
  /** ALLOWED_HOSTS entries with a port, served on that port only. */
  hostPorts: Set<string>;
}

let allowed: Allowed | undefined;

/** Built once per configuration (env() and the remote access setting are cached), since this runs on every request. */
function allowedHosts(): Allowed {
  const e = env();
  const access = remoteAccess();
  if (allowed?.source === e && allowed.access === access) return allowed;
  const names = new Set([new URL(e.publicUrl).hostname.toLowerCase(), new URL(access.publicUrl).hostname.toLowerCase()]);
  const hostPorts = new Set<string>();
  for (const entry of e.ALLOWED_HOSTS.map((h) => h.toLowerCase())) {
    if (splitHost(entry).port === null) names.add(entry);
    else hostPorts.add(entry);
  }
  allowed = { source: e, access, names, hostPorts };
  return allowed;
}

/** `name` and `port` of a Host value (`[::1]:80` keeps the brackets of its name, as URL.hostname does). */
function splitHost(host: string): { name: string; port: string | null } {
  const colon = host.lastIndexOf(":");
  if (colon < 0 || host.endsWith("]")) return { name: host, port: null };
  return { name: host.slice(0, colon), port: host.slice(colon + 1) };
}

/** Loopback names resolve to this machine in every browser (RFC 6761 for `*.localhost`): no attacker can point them. */
const isLoopback = (name: string) => name === "localhost" || name === "127.0.0.1" || name === "[::1]" || name.endsWith(".localhost");

export function isAllowedHost(host: string): boolean {
  const value = host.toLowerCase();
  const { name } = splitHost(value);
  if (isLoopback(name)) return true;
  const { names, hostPorts } = allowedHosts();
  return names.has(name) || hostPorts.has(value);
}

/**
 * Why this request's Host is not one we serve, or null. DNS rebinding points an attacker's name at us, so a page on
 * that name reaches us same-origin: only names we know are served (checked before any routing, in the fast path and
 * on WebSocket upgrades). Behind a trusted proxy the name the client used is X-Forwarded-Host (the proxy's own Host
 * may be an internal name). A request without Host is served: HTTP/1.0 allows it and browsers always send one, so
 * no rebinding can hide there; an empty one is judged like any other.
 */
export function hostProblem(headers: IncomingHttpHeaders): AppError | null {
  const host = requestHost(headers);
  if (host === undefined || isAllowedHost(host)) return null;
  return new AppError("misdirected_request", `This server does not answer for the host ${JSON.stringify(host)}.`, {
    fix: "Use the instance's public URL (Settings → Remote access, else PUBLIC_URL) or a loopback name; to serve another name, add it to ALLOWED_HOSTS.",
  });
}

/**
 * The host the client sent the request to: from a trusted proxy (by the socket address stampRemoteAddress wrote) the
 * last entry of X-Forwarded-Host, else Host.
 * The last, as with X-Forwarded-For (request-info.ts): a proxy that appends adds its entry after whatever the client
 * sent, so the first entry is the client's own choice and would let it pick the host we judge. Node's headers (the
 * fast path, upgrades, server actions) or a route's fetch-style ones, so every reader takes it from here.
 */
export function requestHost(headers: IncomingHttpHeaders | HeaderReader): string | undefined {
  const read = (name: string) => (isReader(headers) ? (headers.get(name) ?? undefined) : (headers[name] as string | undefined));
  if (isTrustedProxy(read("x-brynth-remote-address"))) {
    const forwarded = read("x-forwarded-host");
    if (forwarded) return forwarded.slice(forwarded.lastIndexOf(",") + 1).trim();
  }
  return read("host");
}

const isReader = (headers: IncomingHttpHeaders | HeaderReader): headers is HeaderReader => typeof headers.get === "function";
