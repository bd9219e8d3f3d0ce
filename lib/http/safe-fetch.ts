import type { LookupAddress, LookupAllOptions } from "node:dns";
import { Resolver as DnsResolver } from "node:dns/promises";
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isAllowedTestHost, isBlockedAddress, outboundUrlProblem } from "@/lib/http/outbound-address";

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text, cut at `maxBytes`. */
  body: string;
}

export class OutboundError extends Error {}

/** Idle keep-alive sockets close after this (under Node's server default of 5 s, and the agent also honours a shorter `Keep-Alive: timeout=` hint). */
const IDLE_SOCKET_MS = 4_000;
/** Hosts with an agent of their own; the least recently used one is closed beyond this. */
const MAX_AGENTS = 256;
const agents = new Map<string, HttpAgent>();

/**
 * A keep-alive agent per origin (design §2.10 c), so repeated deliveries to one endpoint reuse a connection instead
 * of paying a TCP (and TLS) handshake each. The guard is unchanged: each request names the guarded lookup, which
 * the agent uses for every NEW socket, and a reused socket is one whose address already passed it.
 */
function agentFor(url: URL): HttpAgent {
  const key = `${url.protocol}//${url.host}`;
  const found = agents.get(key);
  if (found) {
    // Most recently used last, so eviction takes the stalest.
    agents.delete(key);
    agents.set(key, found);
    return found;
  }
  const opts = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxFreeSockets: 16, scheduling: "lifo" as const };
  const agent = url.protocol === "https:" ? new HttpsAgent(opts) : new HttpAgent(opts);
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldKey, oldest] = agents.entries().next().value as [string, HttpAgent];
    agents.delete(oldKey);
    retire(oldest);
  }
  return agent;
}

/**
 * An evicted agent's idle sockets are closed at once, and the ones still carrying a request when that request is
 * done (no free socket is kept any more). `destroy()` would also cut those requests: anyone able to name 256 other
 * hosts (callback URLs that need not even resolve) could then break other projects' deliveries in flight.
 */
function retire(agent: HttpAgent): void {
  agent.maxFreeSockets = 0;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

/** Closes every pooled connection (shutdown, and tests that change what a host resolves to). */
export function closeOutboundAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/**
 * The only way Brynth calls URLs that users give it (approval callbacks, mail webhooks). The address is checked where the
 * connection is made, so a name that resolves to a private address (or re-resolves to one: DNS rebinding) is
 * refused; redirects are not followed; the whole exchange has a deadline and the body a size cap. `signal` cuts the
 * exchange short: a job runner that stops aborts its jobs, and one waiting on a silent endpoint must not hold the
 * shutdown for the whole deadline.
 */
export function safeFetch(
  rawUrl: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number; maxBytes?: number; signal?: AbortSignal } = {},
): Promise<SafeResponse> {
  const problem = outboundUrlProblem(rawUrl);
  if (problem) return Promise.reject(new OutboundError(`URL ${problem}`));
  const url = new URL(rawUrl);
  const trusted = isAllowedTestHost(url);
  const maxBytes = init.maxBytes ?? 64 * 1024;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: init.method ?? "POST",
      headers: { "user-agent": "Brynth-Webhooks/1", ...init.headers, ...(init.body ? { "content-length": String(Buffer.byteLength(init.body)) } : {}) },
      lookup: trusted ? undefined : guardedLookup,
      agent: agentFor(url),
      timeout: init.timeoutMs ?? 10_000,
      signal: init.signal,
    });
    const deadline = setTimeout(() => req.destroy(new OutboundError("timed out")), init.timeoutMs ?? 10_000);
    req.on("timeout", () => req.destroy(new OutboundError("timed out")));
    req.on("error", (err) => {
      clearTimeout(deadline);
      if (init.signal?.aborted) return reject(new OutboundError("cancelled before an answer came (the job was stopped)"));
      reject(err instanceof OutboundError ? err : new OutboundError(err.message));
    });
    // A 101 Switching Protocols answer (nothing here asks to upgrade) makes Node drop the socket with neither
    // 'error' nor 'response', and the deadline's destroy() of a destroyed request does nothing: the fetch never
    // settled, and held its endpoint slot until a restart (found by helper-116). A request that closes unanswered fails.
    let answered = false;
    req.on("close", () => {
      if (answered) return;
      clearTimeout(deadline);
      reject(new OutboundError(init.signal?.aborted ? "cancelled before an answer came (the job was stopped)" : "the connection closed without an answer"));
    });
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size >= maxBytes) return;
        chunks.push(chunk.subarray(0, maxBytes - size));
        size += chunk.length;
        if (size >= maxBytes) res.destroy();
      });
      const done = () => {
        clearTimeout(deadline);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
      };
      res.on("end", done);
      res.on("close", done);
      res.on("error", done);
    });
    req.end(init.body);
  });
}

type Resolver = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * Names from user URLs are resolved by c-ares (a dns Resolver, the servers of /etc/resolv.conf), never dns.lookup:
 * getaddrinfo runs on libuv's pool of 4 threads, shared with file reads, zlib and crypto, and a name whose DNS server
 * never answers holds a thread for the system resolver's whole timeout (5 s per attempt) long after our deadline has
 * dropped the request. A few webhooks on such names (any agent can make them) kept that pool busy and stalled every
 * file read of the process. c-ares queries from the event loop and gives up on its own timeout. (It reads no
 * /etc/hosts either: names there are the operator's own hosts, which a user URL has no business reaching.)
 */
const dns = new DnsResolver({ timeout: 2_000, tries: 2 });
const systemDnsServers = dns.getServers();

/** A and AAAA together, IPv4 first; an error only when neither gives an address. */
const systemResolver: Resolver = (hostname, options, callback) => {
  const ask = (family: 4 | 6) =>
    options.family && options.family !== family
      ? Promise.resolve([])
      : (family === 4 ? dns.resolve4(hostname) : dns.resolve6(hostname)).then((list) => list.map((address) => ({ address, family })));
  void Promise.allSettled([ask(4), ask(6)]).then((results) => {
    const found = results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
    if (found.length > 0) return callback(null, found);
    const failed = results.find((r) => r.status === "rejected");
    const err = failed ? (failed.reason as NodeJS.ErrnoException) : Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" });
    callback(err, []);
  });
};
let resolver: Resolver = systemResolver;

/**
 * Tests only: what names resolve to, e.g. `hook.test` → 127.0.0.1 to play DNS rebinding (design §2.10 b) without
 * /etc/hosts. The guard still judges every answer. `null` restores the system resolver. Pooled connections are
 * closed, so the next request resolves again.
 */
export function setResolverForTests(fn: ((hostname: string) => LookupAddress[]) | null): void {
  resolver = fn ? (hostname, _options, callback) => queueMicrotask(() => callback(null, fn(hostname))) : systemResolver;
  closeOutboundAgents();
}

/** Tests only: the DNS servers the system resolver asks (`127.0.0.1:5353`, one that never answers); `null` restores. */
export function setDnsServersForTests(servers: string[] | null): void {
  dns.setServers(servers ?? systemDnsServers);
  closeOutboundAgents();
}

/** dns.lookup that fails when any resolved address is blocked, so no connection to one is ever opened. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  resolver(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isBlockedAddress(a.address));
    if (bad || list.length === 0) {
      return callback(new OutboundError(`${hostname} resolves to a blocked address`) as NodeJS.ErrnoException, "", 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
