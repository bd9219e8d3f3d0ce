/**
 * Brynth's API on the fast path (what server.ts serves for /api/v1 and /blob), without Next, on the database in
 * DATABASE_URL and the blob store the S3_* variables choose. Seeds a project and a `disk` key, then prints
 * `ready <url> <key> <project id>`.
 */
import { listenApi } from "@/lib/testing/listen-api";
import { seedProject } from "@/lib/testing/seed";

process.on("SIGTERM", () => process.exit(0));

async function main() {
  const { url } = await listenApi();
  const { secret, project } = await seedProject({ scopes: ["disk"], name: `bench ${process.pid}` });
  console.log(`ready ${url} ${secret} ${project.id}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
