import { describe, expect, it } from "vitest";
import net from "node:net";
import { apiInstanceForFile } from "@/lib/testing/spawn-instance";

/**
 * Node takes its own listeners off a socket once it emits 'upgrade', its 'error' handler included, and ws adds one
 * only in handleUpgrade. A client that reset the connection (a TCP RST) while its upgrade was refused (wrong Host, a
 * bad key, a wrong Origin) or still being authenticated raised ECONNRESET with nobody listening: the process exited.
 * Anyone who could reach the port could do it, no key needed (found by helper-115).
 */
const instance = apiInstanceForFile();

function refusedUpgradeThenReset(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => s.write(request));
    let got = "";
    s.on("data", (d) => {
      got += d;
      // The refusal arrived: reset the connection instead of closing it.
      if (got.includes("\r\n\r\n")) s.resetAndDestroy();
    });
    s.on("error", () => {});
    s.on("close", () => resolve(got.split("\r\n")[0]));
  });
}

describe("a refused WebSocket upgrade answered with a TCP reset", () => {
  it("leaves the server running", async () => {
    const port = Number(new URL(instance.url).port);
    let exited: number | null = null;
    instance.child.once("exit", (code) => (exited = code ?? -1));
    const upgrade = (host: string, auth = "") =>
      `GET /api/v1/stream HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${auth}\r\n`;
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(await refusedUpgradeThenReset(port, upgrade("evil.example")));
      statuses.push(await refusedUpgradeThenReset(port, upgrade("127.0.0.1", "Authorization: Bearer brk_live_nope\r\n")));
    }
    expect(statuses[0]).toMatch(/^HTTP\/1\.1 421/);
    await new Promise((r) => setTimeout(r, 500));
    // It died of an unhandled 'error' event (read ECONNRESET).
    expect(exited).toBeNull();
    const health = await fetch(`${instance.url}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    expect(health).toBe(200);
  }, 30_000);
});
