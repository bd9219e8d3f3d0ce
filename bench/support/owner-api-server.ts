/**
 * Brynth's API on the fast path, without Next, for bench/owner-rest.ts, on DATABASE_URL. Seeds the owner and a project
 * with an every-scope key and one webhook source; prints `ready <url> <project id> <key secret>`. With
 * OWNER_BASIC_UNCACHED=1, HTTP Basic verifies argon2id on every request (the A/B's other side).
 */
import { getDb } from "@/lib/db/client";
import { addSource } from "@/lib/sources/add-source";
import { listenApi } from "@/lib/testing/listen-api";
import { seedProject } from "@/lib/testing/seed";
import { ownerBasicCache } from "@/lib/auth/owner-basic-cache";

process.on("SIGTERM", () => process.exit(0));
if (process.env.OWNER_BASIC_UNCACHED === "1") ownerBasicCache.setTtl(0);

listenApi()
  .then(async ({ url }) => {
    const { project, secret, actor } = await seedProject({ name: "bench" });
    await (await getDb()).transaction((tx) => addSource(tx, { actor, type: "webhook", name: "shop", verification: "none" }));
    console.log(`ready ${url} ${project.id} ${secret}`);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
