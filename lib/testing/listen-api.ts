import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { migrateDb } from "@/lib/db/migrate";
import { resetEnvCache } from "@/lib/env";
import { fastPathHandler } from "@/lib/http/fast-path";
import { stampRemoteAddress } from "@/lib/http/request-info";
import { attachStreamUpgrade } from "@/lib/http/stream/ws-stream";

/**
 * Brynth's API in this process on a random loopback port: migrations, then exactly what server.ts serves on its
 * fast path (/mcp, /api/v1, hooks, blobs) and the live stream's WebSocket upgrade, without Next. Used by separate instance processes (tests, benchmarks).
 */
export async function listenApi(): Promise<{ url: string; server: Server }> {
  await migrateDb();
  const server = createServer();
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PUBLIC_URL = url;
  resetEnvCache();
  const fast = fastPathHandler(url);
  server.on("request", (req, res) => {
    stampRemoteAddress(req);
    if (!fast(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  attachStreamUpgrade(server, url, { dev: false });
  process.on("SIGTERM", () => process.exit(0));
  return { url, server };
}
