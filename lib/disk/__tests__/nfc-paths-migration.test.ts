import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { diskFiles, diskLinks, diskUploads } from "@/lib/db/schema/disk";
import { findSource } from "@/lib/disk/find-source";
import { pathProblem } from "@/lib/disk/path-rules";
import { newId } from "@/lib/ids";
import { seedProject } from "@/lib/testing/seed";

/** Migrations 0029 and 0031 as drizzle's migrator runs them, statement by statement, over rows written before paths were NFC. */
async function migrate() {
  const db = await getDb();
  for (const file of ["0029_disk_paths_nfc.sql", "0031_disk_paths_nfc_followup.sql"]) {
    const text = readFileSync(join(process.cwd(), "drizzle", file), "utf8");
    for (const statement of text.split("--> statement-breakpoint")) await query(db, sql.raw(statement));
  }
}

let projectId: string;
let otherProjectId: string;
const ids: Record<string, string> = {};

async function file(name: string, path: string, project = projectId, updatedAt = new Date()) {
  ids[name] = newId("fil");
  const row = { id: ids[name], projectId: project, path, blobKey: `test/${ids[name]}`, sizeBytes: 1, contentType: "text/plain" };
  await (await getDb()).insert(diskFiles).values({ ...row, createdAt: updatedAt, updatedAt });
}
/** A file_url link as created before paths were NFC: it names the file (or attachment) as it was stored then. */
async function link(name: string, path: string, fileId: string | null) {
  ids[name] = newId("lnk");
  const attachment = path.startsWith("evt_") ? { eventId: path.split("/")[0], attachmentName: path.slice(path.indexOf("/") + 1) } : {};
  await (await getDb()).insert(diskLinks).values({
    id: ids[name],
    projectId,
    fileId,
    ...attachment,
    path,
    blobKey: `test/${name}`,
    sizeBytes: 1,
    contentType: "text/plain",
    expiresAt: new Date(Date.now() + 60_000),
  });
}
const linkPathOf = async (name: string) => (await (await getDb()).select().from(diskLinks).where(eq(diskLinks.id, ids[name])))[0].path;
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
  // Twins whose NFC path is within the limits, but not with the id 0029 adds: a 246-byte name, a 1012-byte path.
  await file("longTwin", `m/e\u0301${"x".repeat(240)}.pdf`);
  await file("longComposed", `m/\u00e9${"x".repeat(240)}.pdf`);
  const deep = `m/${`${"d".repeat(200)}/`.repeat(4)}`;
  await file("deepTwin", `${deep}e\u0301${"y".repeat(200)}.txt`);
  await file("deepComposed", `${deep}\u00e9${"y".repeat(200)}.txt`);
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
  await link("decomposedLink", "m/cafe\u0301.txt", ids.decomposed);
  await link("twinLink", "m/re\u0301sume\u0301.pdf", ids.twin);
  await link("composedLink", "m/r\u00e9sum\u00e9.pdf", ids.composed);
  await link("goneLink", "m/gone\u0301.txt", newId("fil"));
  await link("attachmentLink", "evt_0029/nai\u0308ve.txt", null);
  await link("longTwinLink", `m/e\u0301${"x".repeat(240)}.pdf`, ids.longTwin);
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
    expect(rows).toHaveLength(11);
    expect((await findSource(await getDb(), { projectId, path: `m/re\u0301sume\u0301 (${ids.twin}).pdf` })).fileId).toBe(ids.twin);
  });

  it("keeps a twin's name within the path limits: its name is cut before the id, so every way in can reach it", async () => {
    const db = await getDb();
    for (const [name, composed, kept] of [
      ["longTwin", "longComposed", "m/\u00e9xxx"],
      ["deepTwin", "deepComposed", `m/${"d".repeat(200)}/`],
    ]) {
      const path = await pathOf(name);
      expect(pathProblem(path)).toBeNull();
      expect(path).toMatch(new RegExp(` \\(${ids[name]}\\)\\.(pdf|txt)$`));
      expect(path.startsWith(kept)).toBe(true);
      expect((await findSource(db, { projectId, path })).fileId).toBe(ids[name]);
      expect((await findSource(db, { projectId, path: await pathOf(composed) })).fileId).toBe(ids[composed]);
    }
    expect(Buffer.byteLength((await pathOf("longTwin")).slice(2))).toBe(255);
    expect(Buffer.byteLength(await pathOf("deepTwin"))).toBe(1024);
    expect(await linkPathOf("longTwinLink")).toBe(await pathOf("longTwin"));
  });

  it("moves open uploads to the NFC path, where their complete will look", async () => {
    const [upload] = await (await getDb()).select().from(diskUploads).where(eq(diskUploads.id, ids.upload));
    expect(upload.path).toBe("m/na\u00efve.bin");
  });
});

describe("migration 0031: public links named as their files are", () => {
  it("names a link to a decomposed file by the path 0029 gave the file, the one it is listed under", async () => {
    expect(await linkPathOf("decomposedLink")).toBe("m/caf\u00e9.txt");
    expect(await linkPathOf("composedLink")).toBe("m/r\u00e9sum\u00e9.pdf");
  });

  it("names a link to a twin 0029 named with its id by that name, not by the composed twin it never served", async () => {
    expect(await linkPathOf("twinLink")).toBe(await pathOf("twin"));
    expect(await linkPathOf("twinLink")).toBe(`m/r\u00e9sum\u00e9 (${ids.twin}).pdf`);
  });

  it("leaves links to files that are gone, and to inbound attachments (spelled as the email did), as they were", async () => {
    expect(await linkPathOf("goneLink")).toBe("m/gone\u0301.txt");
    expect(await linkPathOf("attachmentLink")).toBe("evt_0029/nai\u0308ve.txt");
  });
});
