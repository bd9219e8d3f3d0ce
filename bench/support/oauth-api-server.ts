/**
 * Brynth's API on the fast path, without Next (server.ts serves /mcp the same way), for bench/oauth-whoami.ts, on
 * DATABASE_URL. Seeds the owner and a project with a key; prints `ready <url> <project id> <key secret>`.
 */
import { listenApi } from "@/lib/testing/listen-api";
import { seedProject } from "@/lib/testing/seed";

process.on("SIGTERM", () => process.exit(0));

listenApi()
  .then(async ({ url }) => {
    const { project, secret } = await seedProject({ scopes: ["ledger:read"], name: "bench" });
    console.log(`ready ${url} ${project.id} ${secret}`);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
