/**
 * Brynth's API on the fast path (exactly what server.ts serves for /hooks and /api/v1), without Next, on the
 * database in DATABASE_URL. Seeds a project, a key and two sources, then prints
 * `ready <url> <key> <hmac source url> <wake source url> <project id>`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getDb } from "@/lib/db/client";
import { migrateDb } from "@/lib/db/migrate";
import { resetEnvCache } from "@/lib/env";
import { fastPathHandler, stampRemoteAddress } from "@/lib/http/fast-path";
import { addSource } from "@/lib/sources/add-source";
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
  const { secret, actor, project } = await seedProject({ scopes: ["inbox:read", "inbox:write", "admin"] });
  const db = await getDb();
  const hook = await db.transaction((tx) =>
    addSource(tx, { actor, type: "webhook", name: "bench", verification: "hmac_sha256", secret: process.env.BENCH_HMAC_SECRET! }),
  );
  const wake = await db.transaction((tx) => addSource(tx, { actor, type: "webhook", name: "wake", verification: "none" }));
  console.log(`ready ${url} ${secret} ${hook.url} ${wake.url} ${project.id}`);
  process.on("SIGTERM", () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
