import { describe, expect, it } from "vitest";
import net from "node:net";
import { readFileSync } from "node:fs";
import { apiInstanceForFile } from "@/lib/testing/spawn-instance";

/**
 * HTTP/1.1 pipelining from a client that never reads: Node parses every request of a read chunk before any
 * response exists, and each response waits in the socket's queue. GET /api/v1/openapi.json needs no credential,
 * and each was a fresh ~370 KB copy: 600 requests (32 KB sent, one write) held 337 MB, and one host may open 256
 * connections (found by helper-115). Every response now writes the one Buffer serialized at first use.
 */
const instance = apiInstanceForFile();
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${instance.child.pid}/status`, "utf8"))![1]) >> 10;

describe("pipelined requests from a client that does not read", () => {
  it("do not make the server buffer their responses without bound", async () => {
    const port = Number(new URL(instance.url).port);
    const before = rssMb();
    const s = net.connect(port, "127.0.0.1");
    s.on("error", () => {});
    s.pause();
    await new Promise((r) => s.once("connect", r));
    const one = Buffer.from("GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    s.write(Buffer.concat(Array(600).fill(one)));
    let peak = before;
    for (let i = 0; i < 16; i++) {
      await new Promise((r) => setTimeout(r, 250));
      peak = Math.max(peak, rssMb());
    }
    s.destroy();
    // It was ~340 MB more, from 32 KB sent without a credential.
    expect(peak - before).toBeLessThan(100);
  }, 30_000);
});
