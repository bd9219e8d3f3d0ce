import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { blobErasures } from "@/lib/db/schema/blob-erasures";
import { diskFiles } from "@/lib/db/schema/disk";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { projectBlobPrefix } from "@/lib/blob/queue-erasure";
import { sweepErasures } from "@/lib/blob/sweep-erasures";
import { putFile } from "@/lib/disk/put-file";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { openApiDocument } from "@/lib/tools/adapters/openapi";

/** Deleting a project over owner REST (HTTP Basic), with the dashboard's typed confirmation. */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Delete REST");
});
afterAll(() => c.server.close());

const projectIds = async () => (await c.call("GET", "/projects")).body.projects.map((p: { id: string }) => p.id) as string[];

/** A project with a key and a file in the blob store, made as a script would (the file through the domain function). */
async function doomedProject(name: string) {
  const made = (await c.call("POST", "/projects", { name })).body;
  const key = (await c.call("POST", "/keys", { name: "agent", scopes: ["ledger:read"] }, { "x-brynth-project": made.id })).body;
  const db = await getDb();
  const actor = await ownerActor(db, c.seeded.owner, made.id, "rest");
  await db.transaction((tx) => putFile(tx, { actor, path: "notes.txt", contentBase64: Buffer.from("bytes").toString("base64"), contentType: "text/plain" }));
  const whoami = () => fetch(`${c.server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${key.secret}` } }).then((r) => r.status);
  const [file] = await db.select({ blobKey: diskFiles.blobKey }).from(diskFiles).where(eq(diskFiles.projectId, made.id));
  return { id: made.id as string, whoami, blobKey: file.blobKey };
}

describe("owner REST: deleting a project", () => {
  it("deletes it once its name is typed, ledgered in the header's project, stops its keys and erases its blobs", async () => {
    const doomed = await doomedProject("Old shop");
    expect(await doomed.whoami()).toBe(200);
    const res = await c.call("POST", `/projects/${doomed.id}/delete`, { confirm: " Old shop " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: doomed.id, name: "Old shop", deleted: true, ledger_project_id: c.seeded.project.id });
    expect(await projectIds()).not.toContain(doomed.id);
    expect(await doomed.whoami()).toBe(401);
    const entry = await c.entry("project.delete");
    expect(entry).toMatchObject({ subject: doomed.id, actorType: "owner", via: "rest" });

    const db = await getDb();
    const prefix = projectBlobPrefix(doomed.id);
    expect(doomed.blobKey.startsWith(`${prefix}/`)).toBe(true);
    expect((await db.select().from(blobErasures).where(eq(blobErasures.prefix, prefix))).length).toBe(1);
    expect((await sweepErasures(db)).emptied).toContain(prefix);
    expect(await (await getBlobStore()).head(doomed.blobKey)).toBeNull();
  });

  it("chains the entry in another project when the header names the one deleted", async () => {
    const doomed = await doomedProject("Header names me");
    const res = await c.call("POST", `/projects/${doomed.id}/delete`, { confirm: "Header names me" }, { "x-brynth-project": doomed.id });
    expect(res.status).toBe(200);
    expect(res.body.ledger_project_id).not.toBe(doomed.id);
    expect((await lastLedgerEntry(res.body.ledger_project_id, "project.delete"))?.subject).toBe(doomed.id);
  });

  it("refuses a missing, wrong or too long confirmation on the confirm field, and deletes nothing", async () => {
    const kept = await doomedProject("Keep me");
    for (const body of [{}, { confirm: "keep me" }, { confirm: "Keep" }, { confirm: "x".repeat(201) }, { confirm: 7 }, { confirm: "Keep me", extra: 1 }]) {
      const res = await c.call("POST", `/projects/${kept.id}/delete`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(namesFields(res.body, [Object.keys(body).includes("extra") ? "extra" : "confirm"]), JSON.stringify(res.body)).toBe(true);
    }
    expect(await projectIds()).toContain(kept.id);
    expect(await kept.whoami()).toBe(200);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(blobErasures)
        .where(eq(blobErasures.prefix, projectBlobPrefix(kept.id))),
    ).toEqual([]);
    expect(await (await getBlobStore()).head(kept.blobKey)).toEqual({ size: 5 });
  });

  it("answers 404 for a project that is not the owner's", async () => {
    const res = await c.call("POST", "/projects/prj_unknown/delete", { confirm: "x" });
    expect(res.status).toBe(404);
  });

  it("is in the OpenAPI document under the owner tag, as is the password change", () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> };
    expect(doc.paths["/api/v1/projects/{project_id}/delete"]?.post).toMatchObject({ operationId: "projects_delete", tags: ["owner"] });
    expect(doc.paths["/api/v1/owner/password"]?.put).toMatchObject({ operationId: "owner_password_change", tags: ["owner"] });
  });
});
