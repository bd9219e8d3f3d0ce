import { and, eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { getDb } from "@/lib/db/client";
import { openPostgres } from "@/lib/db/postgres-driver";
import { diskFiles } from "@/lib/db/schema/disk";
import { isCommitOutcomeUnknown } from "@/lib/db/transaction";
import { putFile } from "@/lib/disk/put-file";
import { appendEntry } from "@/lib/ledger/append-entry";
import { commitDroppingProxy } from "@/lib/testing/commit-dropping-proxy";
import { seedProject } from "@/lib/testing/seed";

/**
 * A COMMIT whose answer is lost may have committed: the transaction's rollback tasks must not run (found by
 * helper-113). They ran when a statement sent with the COMMIT (the ledger entry every call writes) failed, which a
 * lost connection makes it do: a committed file_put's bytes were deleted. PostgreSQL only (a real connection).
 */
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
let proxy: Awaited<ReturnType<typeof commitDroppingProxy>>;
beforeAll(async () => {
  if (onPostgres) proxy = await commitDroppingProxy();
});
afterAll(() => proxy?.close());

it.runIf(onPostgres)("keeps the bytes of a file_put whose COMMIT answer was lost, and says the outcome is unknown", async () => {
  const seeded = await seedProject({ name: "Lost commit" });
  const sql = postgres(proxy.url, { max: 1, onnotice: () => {} });
  const db = openPostgres(sql);
  const save = (path: string) =>
    db.transaction(async (tx) => {
      const saved = await putFile(tx, { actor: seeded.actor, path, contentBase64: Buffer.from(path).toString("base64") });
      await appendEntry(tx, { actor: seeded.actor, op: "file.put", subject: path, input: {}, output: saved });
    });
  try {
    // Answered in full first: the connection's statements are prepared, as a busy one's are.
    await save("docs/warm.txt");
    proxy.arm();
    const lost = await save("docs/contract.txt").catch((err: unknown) => err);
    expect(proxy.fired()).toBe(true);
    expect(isCommitOutcomeUnknown(lost)).toBe(true);
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
  await new Promise((r) => setTimeout(r, 100));
  const [row] = await (await getDb())
    .select({ blobKey: diskFiles.blobKey })
    .from(diskFiles)
    .where(and(eq(diskFiles.projectId, seeded.project.id), eq(diskFiles.path, "docs/contract.txt")));
  expect(await (await getBlobStore()).head(row.blobKey)).toMatchObject({ size: "docs/contract.txt".length });
});
