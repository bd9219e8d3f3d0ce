/**
 * Brynth's API on the fast path (what server.ts serves for /api/v1 and /blob), without Next, on the database in
 * DATABASE_URL and the blob store the S3_* variables choose. Seeds a project and a `disk` key, then prints
 * `ready <url> <key> <project id>`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { migrateDb } from "@/lib/db/migrate";
import { resetEnvCache } from "@/lib/env";
import { fastPathHandler, stampRemoteAddress } from "@/lib/http/fast-path";
import { seedProject } from "@/lib/testing/seed";

async function main() {
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
  const { secret, project } = await seedProject({ scopes: ["disk"], name: `bench ${process.pid}` });
  console.log(`ready ${url} ${secret} ${project.id}`);
  process.on("SIGTERM", () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
