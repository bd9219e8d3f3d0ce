import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resetEnvCache } from "@/lib/env";
import { capConnectionsPerAddress } from "@/lib/http/connection-cap";
import { fastPathHandler } from "@/lib/http/fast-path";
import { stampRemoteAddress } from "@/lib/http/request-info";
import { attachStreamUpgrade } from "@/lib/http/stream/ws-stream";

/**
 * The real API handlers (MCP + REST) on a real HTTP port, without Next: the same fast path server.ts uses.
 * Sets PUBLIC_URL to the bound address so links and Origin checks match it.
 */
export async function startApiServer(): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  let fastPath: ReturnType<typeof fastPathHandler> | undefined;
  const server = createServer((req, res) => {
    stampRemoteAddress(req);
    if (!fastPath!(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  capConnectionsPerAddress(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PUBLIC_URL = url;
  resetEnvCache();
  fastPath = fastPathHandler(url);
  attachStreamUpgrade(server, url, { dev: false });
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
