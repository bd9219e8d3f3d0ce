import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isAllowedTestHost, isBlockedAddress, outboundUrlProblem } from "@/lib/http/outbound-address";

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text, cut at `maxBytes`. */
  body: string;
}

export class OutboundError extends Error {}

/**
 * The only way Brynth calls URLs that users give it (approval callbacks). The address is checked where the
 * connection is made, so a name that resolves to a private address (or re-resolves to one: DNS rebinding) is
 * refused; redirects are not followed; the whole exchange has a deadline and the body a size cap.
 */
export function safeFetch(
  rawUrl: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number; maxBytes?: number } = {},
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
      agent: false,
      timeout: init.timeoutMs ?? 10_000,
    });
    const deadline = setTimeout(() => req.destroy(new OutboundError("timed out")), init.timeoutMs ?? 10_000);
    req.on("timeout", () => req.destroy(new OutboundError("timed out")));
    req.on("error", (err) => {
      clearTimeout(deadline);
      reject(err instanceof OutboundError ? err : new OutboundError(err.message));
    });
    req.on("response", (res) => {
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

/** dns.lookup that fails when any resolved address is blocked, so no connection to one is ever opened. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
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
