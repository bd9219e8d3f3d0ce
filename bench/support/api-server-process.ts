/**
 * The real MCP/REST handlers (the fast path server.ts uses) on a port of their own, without Next or background
 * services, for benchmarks that drive them from another process. Env: DATABASE_URL, PORT (0 = any).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fastPathHandler, stampRemoteAddress } from "@/lib/http/fast-path";
import { getDb } from "@/lib/db/client";

async function main() {
  await getDb();
  let handle: ReturnType<typeof fastPathHandler> | undefined;
  const server = createServer((req, res) => {
    stampRemoteAddress(req);
    if (!handle!(req, res)) res.writeHead(404).end();
  });
  server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    handle = fastPathHandler(url);
    console.log(`ready ${url}`);
  });
  process.on("SIGTERM", () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
