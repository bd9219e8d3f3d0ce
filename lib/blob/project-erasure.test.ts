import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { blobErasures } from "@/lib/db/schema/blob-erasures";
import { diskFiles } from "@/lib/db/schema/disk";
import { mailAttachments, mailMessages } from "@/lib/db/schema/mail";
import { projects } from "@/lib/db/schema/projects";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { projectBlobPrefix } from "@/lib/blob/queue-erasure";
import { sweepErasures } from "@/lib/blob/sweep-erasures";
import { putFile } from "@/lib/disk/put-file";
import { resetEnvCache } from "@/lib/env";
import { putMailBlob } from "@/lib/mail/mail-blob";
import { deleteProject } from "@/lib/projects/delete-project";
import { seedReceivedMail } from "@/lib/testing/mail-fixture";
import { startS3rver } from "@/lib/testing/s3rver";
import { seedProject } from "@/lib/testing/seed";

/**
 * Deleting a project erases its bytes from the blob store, on the local store and on S3 (s3rver through the AWS SDK):
 * disk files, received mail (raw message and attachments), draft files, and bytes no row pointed at.
 */
async function projectWithBlobs(name: string) {
  const seeded = await seedProject({ name });
  const db = await getDb();
  await db.transaction((tx) =>
    putFile(tx, {
      actor: seeded.actor,
      path: "docs/report.txt",
      contentBase64: Buffer.from(`report of ${name}`).toString("base64"),
      contentType: "text/plain",
    }),
  );
  await seedReceivedMail(seeded.project.id);
  // As a received message whose transaction failed leaves it: in the store, referenced by nothing.
  const stray = await putMailBlob(seeded.project.id, new TextEncoder().encode("stray"), "text/plain");
  const id = seeded.project.id;
  const files = await db.select({ k: diskFiles.blobKey }).from(diskFiles).where(eq(diskFiles.projectId, id));
  const raws = await db.select({ k: mailMessages.rawBlobKey }).from(mailMessages).where(eq(mailMessages.projectId, id));
  const atts = await db.select({ k: mailAttachments.blobKey }).from(mailAttachments).where(eq(mailAttachments.projectId, id));
  const keys = [...files, ...raws, ...atts].flatMap((r) => (r.k ? [r.k] : []));
  return { ...seeded, keys: [...keys, stray], rowKeys: keys };
}

const present = async (keys: string[]) => {
  const store = await getBlobStore();
  return (await Promise.all(keys.map((k) => store.head(k)))).filter((h) => h !== null).length;
};

describe.each(["fs", "s3"])("%s store: deleting a project", (kind) => {
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  beforeAll(async () => {
    if (kind === "s3") s3 = await startS3rver();
    expect((await getBlobStore()).kind).toBe(kind);
  });
  afterAll(() => s3?.close());

  it("erases every object under its prefix after the rows are gone, and leaves the other projects' alone", async () => {
    const db = await getDb();
    const doomed = await projectWithBlobs(`Doomed ${kind}`);
    const kept = await projectWithBlobs(`Kept ${kind}`);
    // A file, a received message's raw bytes and attachment, a draft's file, and the stray.
    expect(doomed.keys.length).toBeGreaterThanOrEqual(5);
    expect(await present(doomed.keys)).toBe(doomed.keys.length);

    await db.transaction((tx) => deleteProject(tx, { ownerId: doomed.owner.id, projectId: doomed.project.id, confirmName: `Doomed ${kind}` }));
    expect(await db.select().from(projects).where(eq(projects.id, doomed.project.id))).toEqual([]);
    expect(await db.select().from(mailAttachments).where(inArray(mailAttachments.blobKey, doomed.rowKeys))).toEqual([]);
    const prefix = projectBlobPrefix(doomed.project.id);
    const [queued] = await db.select().from(blobErasures).where(eq(blobErasures.prefix, prefix));
    expect(queued.finalAt.getTime()).toBeGreaterThan(queued.notBefore.getTime());

    const first = await sweepErasures(db);
    expect(first.emptied).toContain(prefix);
    expect(await present(doomed.keys)).toBe(0);
    expect(await present(kept.keys)).toBe(kept.keys.length);

    // Bytes landing late (a presigned upload still valid) go at the final pass, and the row with it.
    const late = await putMailBlob(doomed.project.id, new TextEncoder().encode("late"), "text/plain");
    const [waiting] = await db.select().from(blobErasures).where(eq(blobErasures.prefix, prefix));
    expect(waiting.notBefore).toEqual(queued.finalAt);
    expect((await sweepErasures(db)).emptied).not.toContain(prefix);
    expect(await present([late])).toBe(1);
    expect((await sweepErasures(db, queued.finalAt)).emptied).toContain(prefix);
    expect(await present([late])).toBe(0);
    expect(await db.select().from(blobErasures).where(eq(blobErasures.prefix, prefix))).toEqual([]);
  });

  it("queues nothing when the deleting transaction rolls back: rows and bytes stay", async () => {
    const db = await getDb();
    const p = await projectWithBlobs(`Rolled back ${kind}`);
    await expect(
      db.transaction(async (tx) => {
        await deleteProject(tx, { ownerId: p.owner.id, projectId: p.project.id, confirmName: `Rolled back ${kind}` });
        throw new Error("the ledger entry failed");
      }),
    ).rejects.toThrow("the ledger entry failed");
    expect(
      await db
        .select()
        .from(blobErasures)
        .where(eq(blobErasures.prefix, projectBlobPrefix(p.project.id))),
    ).toEqual([]);
    expect((await db.select().from(projects).where(eq(projects.id, p.project.id))).length).toBe(1);
    await sweepErasures(db);
    expect(await present(p.keys)).toBe(p.keys.length);
  });

  it.runIf(kind === "s3")("keeps the erasure queued while the store fails, and finishes it once the store answers", async () => {
    const db = await getDb();
    const p = await projectWithBlobs("Store down");
    await db.transaction((tx) => deleteProject(tx, { ownerId: p.owner.id, projectId: p.project.id, confirmName: "Store down" }));
    const prefix = projectBlobPrefix(p.project.id);
    const bucket = process.env.S3_BUCKET;
    process.env.S3_BUCKET = "no-such-bucket";
    resetEnvCache();
    try {
      expect((await sweepErasures(db)).failed).toContain(prefix);
    } finally {
      process.env.S3_BUCKET = bucket;
      resetEnvCache();
    }
    // The rows went at once; the bytes and the queued erasure wait for the store.
    expect(await db.select().from(projects).where(eq(projects.id, p.project.id))).toEqual([]);
    expect((await db.select().from(blobErasures).where(eq(blobErasures.prefix, prefix))).length).toBe(1);
    expect(await present(p.keys)).toBe(p.keys.length);
    expect((await sweepErasures(db)).emptied).toContain(prefix);
    expect(await present(p.keys)).toBe(0);
  });
});
