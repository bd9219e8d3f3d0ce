import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import type { Actor } from "@/lib/actor";
import { browseKeys } from "@/lib/disk/browse-keys";
import { folderCursor, listFolder } from "@/lib/disk/list-folder";
import { putFile } from "@/lib/disk/put-file";
import { setKey } from "@/lib/disk/set-key";
import { seedProject } from "@/lib/testing/seed";

/** The dashboard's views: keys paged both ways, files as one level of a folder tree. */
let actor: Actor;
beforeAll(async () => {
  actor = (await seedProject()).actor;
  const db = await getDb();
  await db.transaction(async (tx) => {
    for (let i = 0; i < 7; i++) await setKey(tx, { actor, key: `page/${i}`, value: i });
    await setKey(tx, { actor, key: "other", value: 1 });
    for (const path of ["r/2026/a.txt", "r/2026/b.txt", "r/top.txt", "r", "rz.txt", "x/é/deep.bin", "🗂 box/in.txt"]) {
      await putFile(tx, { actor, path, contentBase64: Buffer.from(path).toString("base64"), contentType: "text/plain" });
    }
  });
});

describe("browseKeys", () => {
  it("pages forwards and backwards within a prefix", async () => {
    const db = await getDb();
    const first = await browseKeys(db, { actor, prefix: "page/", limit: 3 });
    expect(first.rows.map((r) => r.key)).toEqual(["page/0", "page/1", "page/2"]);
    expect([first.hasPrev, first.hasNext]).toEqual([false, true]);
    const second = await browseKeys(db, { actor, prefix: "page/", after: "page/2", limit: 3 });
    expect(second.rows.map((r) => r.key)).toEqual(["page/3", "page/4", "page/5"]);
    const last = await browseKeys(db, { actor, prefix: "page/", after: "page/5", limit: 3 });
    expect(last.rows.map((r) => r.key)).toEqual(["page/6"]);
    expect(last.hasNext).toBe(false);
    const back = await browseKeys(db, { actor, prefix: "page/", before: "page/3", limit: 3 });
    expect(back.rows.map((r) => r.key)).toEqual(["page/0", "page/1", "page/2"]);
    expect([back.hasPrev, back.hasNext]).toEqual([false, true]);
  });
});

describe("listFolder", () => {
  it("groups by the next / with folders first, counting files and bytes", async () => {
    const db = await getDb();
    const root = await listFolder(db, { actor, folder: "" });
    expect(root.entries.map((e) => [e.name, e.isFolder, e.files])).toEqual([
      ["r", true, 3],
      ["x", true, 1],
      ["🗂 box", true, 1],
      ["r", false, 1],
      ["rz.txt", false, 1],
    ]);
    const r = await listFolder(db, { actor, folder: "r/" });
    expect(r.entries.map((e) => [e.name, e.isFolder])).toEqual([
      ["2026", true],
      ["top.txt", false],
    ]);
    expect(r.entries[0].sizeBytes).toBe("r/2026/a.txt".length * 2);
    expect(r.entries[1].contentType).toBe("text/plain");
    expect((await listFolder(db, { actor, folder: "x/é/" })).entries.map((e) => e.name)).toEqual(["deep.bin"]);
    // A character outside the BMP is two UTF-16 units but one to Postgres: the names must not shift.
    expect((await listFolder(db, { actor, folder: "🗂 box/" })).entries.map((e) => e.name)).toEqual(["in.txt"]);
    expect((await listFolder(db, { actor, folder: "nothing/" })).entries).toEqual([]);
  });

  it("pages a folder both ways, a folder and a file of one name apart, and reaches every entry", async () => {
    const db = await getDb();
    const names = (page: { entries: { name: string; isFolder: boolean }[] }) => page.entries.map(folderCursor);
    const first = await listFolder(db, { actor, folder: "", limit: 2 });
    expect(names(first)).toEqual(["d:r", "d:x"]);
    expect([first.hasPrev, first.hasNext]).toEqual([false, true]);
    // The folder `r` ends the page before the file `r`: the cursor's kind keeps the file on the next page.
    const second = await listFolder(db, { actor, folder: "", after: "d:x", limit: 2 });
    expect(names(second)).toEqual(["d:🗂 box", "f:r"]);
    expect([second.hasPrev, second.hasNext]).toEqual([true, true]);
    const third = await listFolder(db, { actor, folder: "", after: "f:r", limit: 2 });
    expect(names(third)).toEqual(["f:rz.txt"]);
    expect([third.hasPrev, third.hasNext]).toEqual([true, false]);
    const back = await listFolder(db, { actor, folder: "", before: "f:r", limit: 2 });
    expect(names(back)).toEqual(["d:x", "d:🗂 box"]);
    expect([back.hasPrev, back.hasNext]).toEqual([true, true]);
    expect(names(await listFolder(db, { actor, folder: "", before: "d:x", limit: 2 }))).toEqual(["d:r"]);
    // A cursor the screen never made (hand-edited URL) is no cursor: the first page.
    expect(names(await listFolder(db, { actor, folder: "", after: "zz", limit: 2 }))).toEqual(["d:r", "d:x"]);
    expect((await listFolder(db, { actor, folder: "", after: "f:zzz", limit: 2 })).entries).toEqual([]);
  });
});
