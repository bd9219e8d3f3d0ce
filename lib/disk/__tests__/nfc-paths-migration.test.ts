import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { diskFiles, diskUploads } from "@/lib/db/schema/disk";
import { findSource } from "@/lib/disk/find-source";
import { newId } from "@/lib/ids";
import { seedProject } from "@/lib/testing/seed";

/** Migration 0029 as drizzle's migrator runs it, statement by statement, over rows written before paths were NFC. */
async function migrate() {
  const text = readFileSync(join(process.cwd(), "drizzle/0029_disk_paths_nfc.sql"), "utf8");
  const db = await getDb();
  for (const statement of text.split("--> statement-breakpoint")) await query(db, sql.raw(statement));
}

let projectId: string;
let otherProjectId: string;
const ids: Record<string, string> = {};

async function file(name: string, path: string, project = projectId, updatedAt = new Date()) {
  ids[name] = newId("fil");
  const row = { id: ids[name], projectId: project, path, blobKey: `test/${ids[name]}`, sizeBytes: 1, contentType: "text/plain" };
  await (await getDb()).insert(diskFiles).values({ ...row, createdAt: updatedAt, updatedAt });
}
const pathOf = async (name: string) => (await (await getDb()).select().from(diskFiles).where(eq(diskFiles.id, ids[name])))[0].path;

beforeAll(async () => {
  projectId = (await seedProject()).project.id;
  otherProjectId = (await seedProject()).project.id;
  await file("decomposed", "m/cafe\u0301.txt");
  await file("sameInOther", "m/cafe\u0301.txt", otherProjectId);
  await file("twin", "m/re\u0301sume\u0301.pdf");
  await file("composed", "m/r\u00e9sum\u00e9.pdf");
  // Two spellings that are neither NFC and meet at the same NFC path (Å): the newer takes it.
  await file("angstrom", "m/\u212b", projectId, new Date(Date.now() - 60_000));
  await file("ring", "m/A\u030a");
  await file("untouched", "m/plain.txt");
  ids.upload = newId("upl");
  await (await getDb()).insert(diskUploads).values({
    id: ids.upload,
    projectId,
    path: "m/nai\u0308ve.bin",
    blobKey: `test/${ids.upload}`,
    sizeBytes: 1,
    contentType: "application/octet-stream",
    expiresAt: new Date(Date.now() + 60_000),
  });
  await migrate();
});

describe("migration 0029: disk paths in NFC", () => {
  it("gives a file stored decomposed its NFC path, so the NFC path every way in now sends finds it", async () => {
    expect(await pathOf("decomposed")).toBe("m/caf\u00e9.txt");
    expect(await pathOf("sameInOther")).toBe("m/caf\u00e9.txt");
    expect((await findSource(await getDb(), { projectId, path: "m/cafe\u0301.txt" })).fileId).toBe(ids.decomposed);
    expect(await pathOf("untouched")).toBe("m/plain.txt");
  });

  it("keeps both files of a twin: the decomposed one is named with its id, neither is dropped or overwritten", async () => {
    expect(await pathOf("composed")).toBe("m/r\u00e9sum\u00e9.pdf");
    expect(await pathOf("twin")).toBe(`m/r\u00e9sum\u00e9 (${ids.twin}).pdf`);
    expect(await pathOf("ring")).toBe("m/\u00c5");
    expect(await pathOf("angstrom")).toBe(`m/\u00c5 (${ids.angstrom})`);
    const rows = await (await getDb())
      .select()
      .from(diskFiles)
      .where(inArray(diskFiles.id, Object.values(ids)));
    expect(rows).toHaveLength(7);
    expect((await findSource(await getDb(), { projectId, path: `m/re\u0301sume\u0301 (${ids.twin}).pdf` })).fileId).toBe(ids.twin);
  });

  it("moves open uploads to the NFC path, where their complete will look", async () => {
    const [upload] = await (await getDb()).select().from(diskUploads).where(eq(diskUploads.id, ids.upload));
    expect(upload.path).toBe("m/na\u00efve.bin");
  });
});
