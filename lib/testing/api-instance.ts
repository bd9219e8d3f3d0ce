/**
 * A separate API process on the given database (DATABASE_URL) and PORT: the two-instance test runs two of these
 * on one Postgres. Prints `ready <url>` once listening.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { migrateDb } from "@/lib/db/migrate";
import { fastPathHandler, stampRemoteAddress } from "@/lib/http/fast-path";

async function main() {
  await migrateDb();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PUBLIC_URL = url;
  const fast = fastPathHandler(url);
  server.on("request", (req, res) => {
    stampRemoteAddress(req);
    if (!fast(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  console.log(`ready ${url}`);
  process.on("SIGTERM", () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
