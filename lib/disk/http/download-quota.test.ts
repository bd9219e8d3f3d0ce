import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { MONTHLY_DOWNLOAD_BYTES } from "@/lib/disk/limits";
import { monthOf } from "@/lib/disk/usage";
import { restClient } from "@/lib/disk/__tests__/helpers";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

/**
 * A download past the project's 5 GB a month is a 429 QUOTA_EXCEEDED, which had no Retry-After and no resets_at
 * though the reset is known (the 1st, UTC), as mail's QUOTA_EXCEEDED gives: a download URL's client (curl --retry,
 * a browser, a CDN) retried at once, and forever.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject();
});
afterAll(() => server.close());

it("a download refused for the monthly quota says when to retry", async () => {
  const rest = restClient(server.url, seeded.secret);
  const size = 1024 * 1024 + 10; // over the inline 1 MB: file_get answers a download URL
  const started = await rest("PUT", "/files/big.bin", { upload: { size, content_type: "application/octet-stream" } });
  expect(started.status).toBe(200);
  expect((await fetch(started.body.upload_url, { method: "PUT", headers: started.body.upload_headers, body: new Uint8Array(size) })).status).toBe(200);
  expect((await rest("PUT", "/files/big.bin", { complete: started.body.upload_id })).status).toBe(200);
  const got = await rest("GET", "/files/big.bin");
  expect(got.body.download_url).toBeTruthy();

  const db = await getDb();
  const month = monthOf(new Date());
  await query(
    db,
    sql`update disk_usage set download_month = ${month}, download_bytes = ${MONTHLY_DOWNLOAD_BYTES - 100} where project_id = ${seeded.project.id}`,
  );
  const asked = Date.now();
  const res = await fetch(got.body.download_url);
  const answered = Date.now();
  expect(res.status).toBe(429);
  const body = await res.json();
  expect(body.error.code).toBe("QUOTA_EXCEEDED");
  const resetsAt = Date.parse(body.error.details.resets_at);
  expect(new Date(resetsAt).getUTCDate()).toBe(1);
  // The seconds until that reset, as of some moment while the request was answered.
  const retryAfter = Number(res.headers.get("retry-after"));
  const [soonest, latest] = [Math.floor((resetsAt - answered) / 1000), Math.ceil((resetsAt - asked) / 1000)];
  expect(retryAfter >= soonest && retryAfter <= latest, `${retryAfter} in [${soonest}, ${latest}]`).toBe(true);
});
