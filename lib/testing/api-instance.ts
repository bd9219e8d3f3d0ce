/**
 * A separate API process on the given database (DATABASE_URL): the two-instance tests run two of these on one
 * Postgres. Prints `ready <url>` once listening.
 */
import { listenApi } from "@/lib/testing/listen-api";

// Exit normally on SIGTERM, so that --cpu-prof (bench/approvals.ts) can write its profile.
process.on("SIGTERM", () => process.exit(0));

listenApi()
  .then(({ url }) => console.log(`ready ${url}`))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
