/**
 * Brynth's API on the fast path (exactly what server.ts serves for /hooks and /api/v1), without Next, on the
 * database in DATABASE_URL. Seeds a project, a key and two sources, then prints
 * `ready <url> <key> <hmac source url> <wake source url> <project id>`.
 */
import { getDb } from "@/lib/db/client";
import { addSource } from "@/lib/sources/add-source";
import { listenApi } from "@/lib/testing/listen-api";
import { seedProject } from "@/lib/testing/seed";

// Exit normally on SIGTERM, so that --cpu-prof can write its profile.
process.on("SIGTERM", () => process.exit(0));

async function main() {
  const { url } = await listenApi();
  const { secret, actor, project } = await seedProject({ scopes: ["inbox:read", "inbox:write", "admin"] });
  const db = await getDb();
  const hook = await db.transaction((tx) =>
    addSource(tx, { actor, type: "webhook", name: "bench", verification: "hmac_sha256", secret: process.env.BENCH_HMAC_SECRET! }),
  );
  const wake = await db.transaction((tx) => addSource(tx, { actor, type: "webhook", name: "wake", verification: "none" }));
  console.log(`ready ${url} ${secret} ${hook.url} ${wake.url} ${project.id}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
