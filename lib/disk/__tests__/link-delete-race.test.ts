import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { diskLinks } from "@/lib/db/schema/disk";
import { createLink } from "@/lib/disk/create-link";
import { deleteFile } from "@/lib/disk/delete-file";
import { putFile } from "@/lib/disk/put-file";
import { seedProject } from "@/lib/testing/seed";
import { heldOpen } from "@/lib/testing/held-open";
import { untilBlocked } from "@/lib/testing/until-blocked";

/**
 * file_url made while file_delete of the path commits (found by helper-112): the delete revoked the links it could
 * see, and the link, inserted by a transaction that had read the file before, stayed listed as active for a file
 * that was gone. The link now reads the file FOR SHARE, so it waits for the delete and finds no file. PostgreSQL only:
 * PGlite runs one transaction at a time.
 */
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
let seeded: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  seeded = await seedProject({ name: "Link against delete" });
});

it.runIf(onPostgres)("a link made while its file is deleted is refused, and no live link is left", async () => {
  const db = await getDb();
  const actor = seeded.actor;
  await db.transaction((tx) => putFile(tx, { actor, path: "doc.txt", contentBase64: Buffer.from("secret").toString("base64") }));
  const deleting = await heldOpen(async (tx) => expect((await deleteFile(tx, { actor, path: "doc.txt" })).deleted).toBe(true));
  const linking = db.transaction((tx) => createLink(tx, { actor, path: "doc.txt", expiresIn: 3600 })).catch((e: unknown) => e);
  await untilBlocked(linking);
  deleting.commit();
  await deleting.done;
  expect(await linking).toMatchObject({ code: "NOT_FOUND" });
  const live = await db
    .select()
    .from(diskLinks)
    .where(and(eq(diskLinks.projectId, seeded.project.id), isNull(diskLinks.revokedAt)));
  expect(live).toEqual([]);
});
