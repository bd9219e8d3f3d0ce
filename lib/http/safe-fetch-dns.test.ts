import { createSocket } from "node:dgram";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeFetch, setDnsServersForTests } from "@/lib/http/safe-fetch";

/** The name a DNS query asks for: its labels, from byte 12 (after the header). */
function queriedName(msg: Buffer): string {
  const labels: string[] = [];
  for (let i = 12; i < msg.length && msg[i] !== 0; i += msg[i] + 1) labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString("ascii"));
  return labels.join(".");
}

/** A DNS server that takes every query and never answers: what an agent's own name server can be. */
const blackHole = createSocket("udp4");
const asked: string[] = [];

beforeAll(async () => {
  blackHole.on("message", (msg) => asked.push(queriedName(msg)));
  await new Promise<void>((resolve) => blackHole.bind(0, "127.0.0.1", resolve));
  setDnsServersForTests([`127.0.0.1:${(blackHole.address() as AddressInfo).port}`]);
});
afterAll(() => {
  setDnsServersForTests(null);
  blackHole.close();
});

describe("safeFetch name resolution", () => {
  it("asks DNS from the event loop: names whose server never answers fail on their own while file reads go on", async () => {
    let settled = 0;
    const fetches = Array.from({ length: 8 }, (_, i) =>
      safeFetch(`https://h${i}.black-hole.example/hook`, { method: "POST", body: "{}", timeoutMs: 20_000 }).finally(() => settled++),
    );
    // Work of libuv's thread pool (4 threads), done while the 8 names are unanswered. With dns.lookup each name held
    // one of those threads for the system resolver's timeout, past the request's own deadline.
    const self = fileURLToPath(import.meta.url);
    await Promise.all(Array.from({ length: 8 }, () => readFile(self)));
    expect(settled).toBe(0);
    // The guard asked the DNS server (dns.lookup would have asked getaddrinfo, which never asks this one).
    while (new Set(asked).size < 8) await new Promise((r) => setTimeout(r, 10));
    expect(new Set(asked)).toEqual(new Set(Array.from({ length: 8 }, (_, i) => `h${i}.black-hole.example`)));
    const outcomes = await Promise.allSettled(fetches);
    for (const o of outcomes) expect(o.status === "rejected" && (o.reason as Error).message).toMatch(/ETIMEOUT h\d\.black-hole\.example/);
  });
});
