import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { diskFiles, diskUploads } from "@/lib/db/schema/disk";
import { completeUpload } from "@/lib/disk/complete-upload";
import { deleteFile } from "@/lib/disk/delete-file";
import { LATE_PUT_MS, MAX_BYTES, MONTHLY_DOWNLOAD_BYTES } from "@/lib/disk/limits";
import { putFile } from "@/lib/disk/put-file";
import { listFolder } from "@/lib/disk/list-folder";
import { startUpload } from "@/lib/disk/start-upload";
import { monthOf } from "@/lib/disk/usage";
import { saveAttachment } from "@/lib/disk/save-attachment";
import { sweepDisk } from "@/lib/disk/sweep-disk";
import { READ_GRACE_MS } from "@/lib/disk/trash-blob";
import { revokeKey } from "@/lib/keys/revoke-key";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { startS3rver } from "@/lib/testing/s3rver";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { untilBlocked } from "@/lib/testing/until-blocked";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { mcpCaller, restClient, setUsage, usageMatchesRows } from "@/lib/disk/__tests__/helpers";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
const b64 = (b: Uint8Array | string) => Buffer.from(b).toString("base64");
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
const body = (b: Uint8Array) => new Blob([new Uint8Array(b)]);

/**
 * The file tools end to end (real HTTP, MCP SDK client, REST), run once per store: the local filesystem and S3
 * through s3rver. Every assertion holds for both.
 */
export function filesSuite(store: "local" | "s3") {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let client: Client;
  let call: ReturnType<typeof mcpCaller>;
  let rest: ReturnType<typeof restClient>;
  let seeded: Awaited<ReturnType<typeof seedProject>>;

  beforeAll(async () => {
    if (store === "s3") s3 = await startS3rver();
    server = await startApiServer();
    seeded = await seedProject({ scopes: ["disk"] });
    client = (await connectMcp(server.url, seeded.secret)).client;
    call = mcpCaller(client);
    rest = restClient(server.url, seeded.secret);
    expect((await getBlobStore()).kind).toBe(store === "s3" ? "s3" : "fs");
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await s3?.close();
  });

  /** Starts a presigned upload, PUTs the bytes with a plain fetch, completes it. */
  async function upload(path: string, bytes: Uint8Array, contentType = "application/octet-stream") {
    const started = await call("file_put", { path, upload: { size: bytes.byteLength, content_type: contentType } });
    expect(started.data).toMatchObject({ status: "uploading", upload_headers: { "Content-Type": contentType } });
    if (store === "s3") expect(started.data.upload_url).toMatch(/X-Amz-Signature=/);
    else expect(started.data.upload_url.startsWith(`${server.url}/blob/upload/`)).toBe(true);
    const put = await fetch(started.data.upload_url, { method: "PUT", headers: started.data.upload_headers, body: body(bytes) });
    expect(put.status).toBe(200);
    return call("file_put", { path, complete: started.data.upload_id });
  }

  const blobKeyOf = async (path: string) => (await (await getDb()).select().from(diskFiles).where(eq(diskFiles.path, path)))[0]?.blobKey;

  describe("inline files", () => {
    it("saves and reads a file by path and by disk:// reference, over MCP and REST", async () => {
      const saved = await call("file_put", { path: "reports/2026-09.txt", content_base64: b64("hello, disk"), content_type: "text/plain" });
      expect(saved.data).toMatchObject({
        status: "saved",
        path: "reports/2026-09.txt",
        ref: "disk://reports/2026-09.txt",
        size_bytes: 11,
        content_type: "text/plain",
      });
      const got = await call("file_get", { path: "disk://reports/2026-09.txt" });
      expect(Buffer.from(got.data.content_base64, "base64").toString()).toBe("hello, disk");
      expect(got.data.download_url).toBeUndefined();
      const viaRest = await rest("PUT", "/files/reports/raw.bin", { content_base64: b64(new Uint8Array([0, 255, 1])) });
      expect(viaRest.body).toMatchObject({ status: "saved", content_type: "application/octet-stream", size_bytes: 3 });
      expect((await rest("GET", "/files/reports%2Fraw.bin")).body.content_base64).toBe("AP8B");
      const wrapped = await call("file_put", { path: "wrapped.txt", content_base64: b64("x".repeat(100)).replace(/(.{76})/g, "$1\n") });
      expect(wrapped.data.size_bytes).toBe(100);
      const empty = await call("file_put", { path: "empty", content_base64: "" });
      expect(empty.data.size_bytes).toBe(0);
    });

    it("lists files by prefix in byte order with cursors, routing /files apart from /files/{path}", async () => {
      for (const p of ["tree/b.txt", "tree/a/z.txt", "tree/A.txt", "tree/é.txt", "tree/a/y.txt", "treehouse"]) {
        await call("file_put", { path: p, content_base64: b64(p) });
      }
      const all = (await call("file_list", { prefix: "tree/" })).data;
      expect(all.items.map((i: { path: string }) => i.path)).toEqual(["tree/A.txt", "tree/a/y.txt", "tree/a/z.txt", "tree/b.txt", "tree/é.txt"]);
      expect(all.items[0]).toMatchObject({ ref: "disk://tree/A.txt", size_bytes: 10, content_type: "application/octet-stream" });
      const first = await rest("GET", "/files?prefix=tree%2F&limit=2");
      expect(first.body.items).toHaveLength(2);
      const second = await rest("GET", `/files?prefix=tree%2F&limit=3&cursor=${first.body.next_cursor}`);
      expect([...first.body.items, ...second.body.items].map((i: { path: string }) => i.path)).toEqual(all.items.map((i: { path: string }) => i.path));
      expect(second.body.next_cursor).toBeNull();
      // Its cursor names a path under tree/, no place in a listing of another prefix.
      const elsewhere = await rest("GET", `/files?prefix=treehouse&cursor=${first.body.next_cursor}`);
      expect([elsewhere.status, elsewhere.body.error]).toEqual([
        400,
        expect.objectContaining({ code: "validation_error", message: "cursor: was returned for another prefix" }),
      ]);
    });

    it("is one file whether its name is written composed (NFC) or decomposed (NFD), in every tool, REST and the dashboard", async () => {
      const nfd = "accents/cafe\u0301.txt";
      const nfc = "accents/caf\u00e9.txt";
      expect(nfd).not.toBe(nfc);
      expect((await call("file_put", { path: nfd, content_base64: b64("first") })).data).toMatchObject({ path: nfc, ref: `disk://${nfc}` });
      expect((await call("file_put", { path: `disk://${nfc}`, content_base64: b64("second") })).data.path).toBe(nfc);
      for (const path of [nfc, nfd, `disk://${nfd}`]) {
        expect(Buffer.from((await call("file_get", { path })).data.content_base64, "base64").toString(), path).toBe("second");
      }
      expect((await rest("GET", `/files/${encodeURIComponent(nfd)}`)).body).toMatchObject({ path: nfc, content_base64: b64("second") });
      const listed = (await call("file_list", { prefix: "accents/" })).data.items.map((i: { path: string }) => i.path);
      expect(listed).toEqual([nfc]);
      expect((await call("file_list", { prefix: "accents/cafe\u0301" })).data.items.map((i: { path: string }) => i.path)).toEqual([nfc]);
      const folder = await listFolder(await getDb(), { actor: seeded.actor, folder: "accents/" });
      expect(folder.entries.map((e) => e.name)).toEqual(["caf\u00e9.txt"]);
      expect((await call("file_url", { path: nfd })).data.url).toBeDefined();
      // The dashboard hands the domain the name as the browser gave it.
      const started = await startUpload(await getDb(), { actor: seeded.actor, path: nfd, size: 1, via: "brynth" });
      expect((await (await getDb()).select().from(diskUploads).where(eq(diskUploads.id, started.upload_id)))[0].path).toBe(nfc);
      expect((await deleteFile(await getDb(), { actor: seeded.actor, path: nfd })).deleted).toBe(true);
      expect((await call("file_get", { path: nfc })).error.code).toBe("NOT_FOUND");
    });

    it("deletes a file, frees its space at once and erases its object on the janitor's pass", async () => {
      await call("file_put", { path: "gone/soon.txt", content_base64: b64("12345") });
      const key = (await blobKeyOf("gone/soon.txt"))!;
      const before = await usageMatchesRows(seeded.project.id);
      expect((await rest("DELETE", "/files/gone/soon.txt")).body).toEqual({ deleted: true });
      expect((await call("file_delete", { path: "disk://gone/soon.txt" })).data).toEqual({ deleted: false });
      expect((await usageMatchesRows(seeded.project.id)).usage.bytes).toBe(before.usage.bytes - 5);
      expect((await call("file_get", { path: "gone/soon.txt" })).error.code).toBe("NOT_FOUND");
      expect(await (await getBlobStore()).head(key)).not.toBeNull();
      // Kept READ_GRACE_MS past the delete, for a read that found the row before it.
      await sweepDisk(await getDb());
      expect(await (await getBlobStore()).head(key)).not.toBeNull();
      await sweepDisk(await getDb(), new Date(Date.now() + READ_GRACE_MS + 1000));
      expect(await (await getBlobStore()).head(key)).toBeNull();
    });

    it("gives a read that found a version before it was replaced and swept that version's bytes, not a 503", async () => {
      await call("file_put", { path: "swept/read.txt", content_base64: b64("first") });
      const store = await getBlobStore();
      const get = store.get.bind(store);
      // Between file_get's lookup and its fetch: the file is replaced and the janitor passes.
      const between = vi.spyOn(store, "get").mockImplementationOnce(async (key) => {
        await call("file_put", { path: "swept/read.txt", content_base64: b64("second") });
        await sweepDisk(await getDb());
        return get(key);
      });
      try {
        expect((await call("file_get", { path: "swept/read.txt" })).data.content_base64).toBe(b64("first"));
      } finally {
        between.mockRestore();
      }
      expect((await call("file_get", { path: "swept/read.txt" })).data.content_base64).toBe(b64("second"));
    });
  });

  describe("presigned uploads", () => {
    const big = randomBytes(1_500_000);

    it("uploads with a plain PUT, then file_get answers a 5-minute download_url serving the exact bytes as an attachment", async () => {
      const done = await upload("big/data.bin", big, "application/x-test");
      expect(done.data).toMatchObject({ status: "saved", path: "big/data.bin", size_bytes: big.byteLength, content_type: "application/x-test" });
      const got = (await call("file_get", { path: "big/data.bin" })).data;
      expect(got.content_base64).toBeUndefined();
      const ttl = new Date(got.expires_at).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(290_000);
      expect(ttl).toBeLessThanOrEqual(300_000);
      const res = await fetch(got.download_url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-type")).toBe("application/x-test");
      expect(Buffer.compare(await bytesOf(res), big)).toBe(0);
    });

    it("answers UPLOAD_INCOMPLETE while nothing or bytes of another size were uploaded, and saves nothing", async () => {
      const started = (await call("file_put", { path: "partial.bin", upload: { size: 10 } })).data;
      const early = await call("file_put", { path: "partial.bin", complete: started.upload_id });
      expect(early.error.code).toBe("UPLOAD_INCOMPLETE");
      // A PUT of another size: S3 (s3rver) stores it, the local store refuses it outright; complete refuses both.
      await fetch(started.upload_url, { method: "PUT", headers: started.upload_headers, body: body(new Uint8Array(7)) });
      const wrong = await rest("PUT", "/files/partial.bin", { complete: started.upload_id });
      expect(wrong.status).toBe(409);
      expect(wrong.body.error.code).toBe("UPLOAD_INCOMPLETE");
      expect((await call("file_get", { path: "partial.bin" })).error.code).toBe("NOT_FOUND");
      // The upload stays open: the right bytes can still be PUT and completed.
      await fetch(started.upload_url, { method: "PUT", headers: started.upload_headers, body: body(new Uint8Array(10).fill(7)) });
      expect((await call("file_put", { path: "partial.bin", complete: started.upload_id })).data.size_bytes).toBe(10);
      expect((await call("file_get", { path: "partial.bin" })).data.content_base64).toBe(b64(new Uint8Array(10).fill(7)));
    });

    it("answers NOT_FOUND for an unknown upload, a completed one, and one dropped because its path was written or deleted", async () => {
      expect((await call("file_put", { path: "x.bin", complete: "upl_doesnotexist" })).error.code).toBe("NOT_FOUND");
      const a = (await call("file_put", { path: "race.bin", upload: { size: 3 } })).data;
      const b = (await call("file_put", { path: "race.bin", upload: { size: 3 } })).data;
      for (const u of [a, b]) await fetch(u.upload_url, { method: "PUT", headers: u.upload_headers, body: body(new Uint8Array(3)) });
      expect((await call("file_put", { path: "race.bin", complete: a.upload_id })).data.status).toBe("saved");
      expect((await call("file_put", { path: "race.bin", complete: a.upload_id })).error.code).toBe("NOT_FOUND");
      expect((await call("file_put", { path: "race.bin", complete: b.upload_id })).error.code).toBe("NOT_FOUND");
      const c = (await call("file_put", { path: "race.bin", upload: { size: 3 } })).data;
      await fetch(c.upload_url, { method: "PUT", headers: c.upload_headers, body: body(new Uint8Array(3)) });
      await call("file_delete", { path: "race.bin" });
      expect((await call("file_put", { path: "race.bin", complete: c.upload_id })).error.code).toBe("NOT_FOUND");
      const d = (await call("file_put", { path: "elsewhere.bin", upload: { size: 3 } })).data;
      expect((await call("file_put", { path: "other.bin", complete: d.upload_id })).error.message).toMatch(/^path: /);
    });

    it.runIf(onPostgres)("drops an upload whose start committed while a write of its path waited: complete is NOT_FOUND, the write stays", async () => {
      const db = await getDb();
      let release = () => {};
      let started = (_: string) => {};
      const uploadId = new Promise<string>((r) => {
        started = r;
      });
      const starting = db.transaction(async (tx) => {
        const out = await startUpload(tx, { actor: seeded.actor, path: "raced.bin", size: 3 });
        started(out.upload_id);
        await new Promise<void>((r) => {
          release = r;
        });
        return out;
      });
      const id = await uploadId;
      const writing = db.transaction((tx) => putFile(tx, { actor: seeded.actor, path: "raced.bin", contentBase64: b64("the write") }));
      await untilBlocked(writing);
      release();
      const up = await starting;
      await writing;
      await fetch(up.upload_url, { method: "PUT", headers: up.upload_headers, body: body(new Uint8Array(3)) });
      // Before: the write dropped the path's uploads before waiting for the start, saw none, and the upload later
      // replaced the newer write.
      expect((await call("file_put", { path: "raced.bin", complete: id })).error.code).toBe("NOT_FOUND");
      expect((await db.select().from(diskFiles).where(eq(diskFiles.path, "raced.bin")))[0].sizeBytes).toBe(9);
    });

    // S3's presigned PUT bypasses this server; the local store's upload URL checks the upload row after writing.
    it.runIf(store === "s3")("keeps a dropped upload's object for the hour a PUT begun before its URL expired may take", async () => {
      const started = (await call("file_put", { path: "late.bin", upload: { size: 4 } })).data;
      const db = await getDb();
      const [row] = await db.select().from(diskUploads).where(eq(diskUploads.id, started.upload_id));
      await call("file_put", { path: "late.bin", content_base64: b64("new") });
      // Before: erased 5 minutes after expiry (the janitor itself waits an hour), so a slow PUT landing later left
      // an object nothing referenced or would ever erase.
      await sweepDisk(db, new Date(row.expiresAt.getTime() + 6 * 60_000));
      const late = await fetch(started.upload_url, { method: "PUT", headers: started.upload_headers, body: body(new Uint8Array(4)) });
      expect(late.status).toBe(200);
      // s3rver answers the PUT before its file is flushed (it resolves on its hashing stream's finish): a HEAD at once
      // may still read 0 bytes on a loaded machine.
      await waitFor(async () => (await (await getBlobStore()).head(row.blobKey))?.size === 4, 10_000);
      await sweepDisk(db, new Date(row.expiresAt.getTime() + LATE_PUT_MS + 60_000));
      expect(await (await getBlobStore()).head(row.blobKey)).toBeNull();
    });

    it("allows at most 3 open uploads per path (UPLOAD_LIMIT)", async () => {
      for (let i = 0; i < 3; i++) expect((await call("file_put", { path: "busy.bin", upload: { size: 1 } })).data.status).toBe("uploading");
      const fourth = await rest("PUT", "/files/busy.bin", { upload: { size: 1 } });
      expect(fourth.status).toBe(409);
      expect(fourth.body.error.code).toBe("UPLOAD_LIMIT");
      expect((await call("file_put", { path: "busy2.bin", upload: { size: 1 } })).data.status).toBe("uploading");
    });

    it("cleans up an abandoned upload: its row and its object are gone after the janitor's pass", async () => {
      const started = (await call("file_put", { path: "abandoned.bin", upload: { size: 4 } })).data;
      await fetch(started.upload_url, { method: "PUT", headers: started.upload_headers, body: body(new Uint8Array(4)) });
      const db = await getDb();
      const [row] = await db.select().from(diskUploads).where(eq(diskUploads.id, started.upload_id));
      expect(await (await getBlobStore()).head(row.blobKey)).toEqual({ size: 4 });
      await sweepDisk(db, new Date(Date.now() + 2 * 3600_000));
      expect(await db.select().from(diskUploads).where(eq(diskUploads.id, started.upload_id))).toEqual([]);
      expect(await (await getBlobStore()).head(row.blobKey)).toBeNull();
      expect((await call("file_put", { path: "abandoned.bin", complete: started.upload_id })).error.code).toBe("NOT_FOUND");
    });
  });

  describe("public links", () => {
    it("serve the file without a key until they expire, as an attachment no browser will run", async () => {
      const html = "<script>alert(document.cookie)</script>";
      await call("file_put", { path: "site/evil page.html", content_base64: b64(html), content_type: "text/html" });
      const link = await call("file_url", { path: "site/evil page.html", expires_in: 60 });
      expect(link.data.link_id).toMatch(/^lnk_/);
      expect(new Date(link.data.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60_000);
      const res = await fetch(link.data.url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(html);
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="evil page.html"; filename\*=UTF-8''evil%20page.html$/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("sandbox");
      const viaRest = await rest("POST", "/file-urls", { path: "disk://site/evil page.html" });
      expect(new Date(viaRest.body.expires_at).getTime() - Date.now()).toBeGreaterThan(3590_000);
      expect((await fetch(viaRest.body.url, { method: "HEAD" })).status).toBe(200);
      expect((await fetch(`${link.data.url.slice(0, -3)}abc`)).status).toBe(404);
    });

    it("stop working when the file is replaced — an old link never serves the new bytes — or deleted", async () => {
      await call("file_put", { path: "doc.txt", content_base64: b64("version one") });
      const old = (await call("file_url", { path: "doc.txt" })).data.url;
      expect(await (await fetch(old)).text()).toBe("version one");
      await call("file_put", { path: "doc.txt", content_base64: b64("version two") });
      const after = await fetch(old);
      expect(after.status).toBe(404);
      expect((await after.json()).error.code).toBe("NOT_FOUND");
      const fresh = (await call("file_url", { path: "doc.txt" })).data.url;
      expect(await (await fetch(fresh)).text()).toBe("version two");
      await call("file_delete", { path: "doc.txt" });
      expect((await fetch(fresh)).status).toBe(404);
    });

    it("never serve bytes PUT to the upload URL after it was completed: a saved version cannot be swapped under its links", async () => {
      const saved = new Uint8Array(16).fill(1);
      const started = (await call("file_put", { path: "swap.bin", upload: { size: 16 } })).data;
      expect((await fetch(started.upload_url, { method: "PUT", headers: started.upload_headers, body: body(saved) })).status).toBe(200);
      expect((await call("file_put", { path: "swap.bin", complete: started.upload_id })).data.status).toBe("saved");
      const url = (await call("file_url", { path: "swap.bin" })).data.url;
      // Still within the upload URL's 15 minutes: a presigned S3 PUT cannot be taken back.
      await fetch(started.upload_url, { method: "PUT", headers: started.upload_headers, body: body(new Uint8Array(16).fill(2)) });
      expect(Buffer.compare(await bytesOf(await fetch(url)), Buffer.from(saved))).toBe(0);
      expect((await call("file_get", { path: "swap.bin" })).data.content_base64).toBe(b64(saved));
    });

    it("stop working when the key that asked is revoked", async () => {
      const other = await seedKey(seeded.project.id, ["disk"], "link maker");
      const otherCall = mcpCaller((await connectMcp(server.url, other.secret)).client);
      await call("file_put", { path: "shared.txt", content_base64: b64("shared") });
      const url = (await otherCall("file_url", { path: "shared.txt" })).data.url;
      expect((await fetch(url)).status).toBe(200);
      const db = await getDb();
      await db.transaction((tx) => revokeKey(tx, { actor: seeded.actor, keyId: other.key.id }));
      expect((await fetch(url)).status).toBe(404);
    });

    it("stop 5-minute download URLs of a replaced file too", async () => {
      const big = randomBytes(1_100_000);
      await upload("big/replaced.bin", big);
      const url = (await call("file_get", { path: "big/replaced.bin" })).data.download_url;
      await call("file_put", { path: "big/replaced.bin", content_base64: b64("small now") });
      expect((await fetch(url)).status).toBe(404);
      expect((await fetch(url.replace(/.$/, (c: string) => (c === "A" ? "B" : "A")))).status).toBe(404);
    });

    it("count downloads toward 5 GB a month and refuse past it (429 QUOTA_EXCEEDED)", async () => {
      await call("file_put", { path: "counted.txt", content_base64: b64("0123456789") });
      const url = (await call("file_url", { path: "counted.txt" })).data.url;
      const db = await getDb();
      const read = async () => (await query<{ b: number }>(db, sql`select download_bytes as b from disk_usage where project_id = ${seeded.project.id}`))[0].b;
      const before = await read();
      await fetch(url).then((r) => r.arrayBuffer());
      expect(await read()).toBe(before + 10);
      await query(
        db,
        sql`update disk_usage set download_month = ${monthOf(new Date())}, download_bytes = ${MONTHLY_DOWNLOAD_BYTES - 5} where project_id = ${seeded.project.id}`,
      );
      const refused = await fetch(url);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.code).toBe("QUOTA_EXCEEDED");
      await query(db, sql`update disk_usage set download_bytes = 0 where project_id = ${seeded.project.id}`);
    });
  });

  describe("inbound attachments (evt_…/name)", () => {
    it("are read by file_get and linked by file_url, but never written or deleted by agents", async () => {
      const db = await getDb();
      const saved = await db.transaction((tx) =>
        saveAttachment(tx, {
          projectId: seeded.project.id,
          eventId: "evt_abc123",
          name: "invoice.pdf",
          contentType: "application/pdf",
          bytes: Buffer.from("%PDF-1.4"),
        }),
      );
      expect(saved.path).toBe("evt_abc123/invoice.pdf");
      const got = await call("file_get", { path: "evt_abc123/invoice.pdf" });
      expect(got.data).toMatchObject({ path: "evt_abc123/invoice.pdf", content_type: "application/pdf", content_base64: b64("%PDF-1.4") });
      const link = await call("file_url", { path: "disk://evt_abc123/invoice.pdf" });
      expect(await (await fetch(link.data.url)).text()).toBe("%PDF-1.4");
      expect((await call("file_get", { path: "evt_abc123/other.pdf" })).error.code).toBe("NOT_FOUND");
      expect((await call("file_get", { path: "evt_abc123" })).error.code).toBe("NOT_FOUND");
      const put = await call("file_put", { path: "evt_abc123/invoice.pdf", content_base64: b64("x") });
      expect(put.error.code).toBe("PATH_RESERVED");
      expect((await rest("PUT", "/files/evt_notes.txt", { upload: { size: 1 } })).body.error.code).toBe("PATH_RESERVED");
      expect((await call("file_delete", { path: "evt_abc123/invoice.pdf" })).error.code).toBe("PATH_RESERVED");
      expect((await call("file_list", { prefix: "" })).data.items.some((i: { path: string }) => i.path.startsWith("evt_"))).toBe(false);
    });
  });

  describe("quota", () => {
    it("refuses files that would take the project past 1 GB, at upload start and at complete", async () => {
      const now = await usageMatchesRows(seeded.project.id);
      await setUsage(seeded.project.id, now.usage.keys, MAX_BYTES - 5);
      expect((await call("file_put", { path: "q/inline.txt", content_base64: b64("123456") })).error.code).toBe("QUOTA_EXCEEDED");
      expect((await call("file_put", { path: "q/inline.txt", content_base64: b64("12345") })).data.size_bytes).toBe(5);
      expect((await call("file_put", { path: "q/inline.txt", content_base64: b64("1234") })).data.size_bytes).toBe(4);
      expect((await call("file_put", { path: "q/up.bin", upload: { size: 2 } })).error.code).toBe("QUOTA_EXCEEDED");
      const ok = (await call("file_put", { path: "q/up.bin", upload: { size: 1 } })).data;
      await fetch(ok.upload_url, { method: "PUT", headers: ok.upload_headers, body: body(new Uint8Array(1)) });
      await call("kv_set", { key: "q/filler", value: 1 }); // takes the last byte meanwhile
      expect((await call("file_put", { path: "q/up.bin", complete: ok.upload_id })).error.code).toBe("QUOTA_EXCEEDED");
      await call("kv_delete", { key: "q/filler" });
      expect((await call("file_put", { path: "q/up.bin", complete: ok.upload_id })).data.status).toBe("saved");
      const after = await usageMatchesRows(seeded.project.id);
      expect(after.usage.bytes).toBe(MAX_BYTES);
      await setUsage(seeded.project.id, after.rows.keys, after.rows.bytes);
    });
  });

  describe("quota and open uploads", () => {
    it("counts open uploads until they complete or expire: one key cannot park more than the project has left", async () => {
      const now = await usageMatchesRows(seeded.project.id);
      await setUsage(seeded.project.id, now.usage.keys, MAX_BYTES - 250);
      // Before: each start checked the committed files alone, and all ten were given an upload URL.
      const starts = [];
      for (let i = 0; i < 10; i++) starts.push(await call("file_put", { path: `parked/${i}.bin`, upload: { size: 100 } }));
      expect(starts.map((s) => s.data?.status ?? s.error.code)).toEqual(["uploading", "uploading", ...Array(8).fill("QUOTA_EXCEEDED")]);
      expect(starts[2].error.message).toContain("200 bytes held by open uploads");
      // Completing one turns its hold into the file's own bytes; the other's hold remains.
      const first = starts[0].data;
      await fetch(first.upload_url, { method: "PUT", headers: first.upload_headers, body: body(new Uint8Array(100)) });
      expect((await call("file_put", { path: "parked/0.bin", complete: first.upload_id })).data.status).toBe("saved");
      expect((await call("file_put", { path: "parked/2.bin", upload: { size: 100 } })).error.code).toBe("QUOTA_EXCEEDED");
      expect((await call("file_put", { path: "parked/2.bin", upload: { size: 50 } })).data.status).toBe("uploading");
      await (await getDb()).delete(diskUploads).where(sql`${diskUploads.path} like 'parked/%'`);
      await call("file_delete", { path: "parked/0.bin" });
      const after = await usageMatchesRows(seeded.project.id);
      await setUsage(seeded.project.id, after.rows.keys, after.rows.bytes);
    });
  });

  describe("quota and expired keys", () => {
    it("frees expired keys' space before refusing an upload start, as an inline put does", async () => {
      await call("kv_set", { key: "q/expiring", value: "x".repeat(2000), ttl_seconds: 60 });
      await query(
        await getDb(),
        sql`update kv_entries set expires_at = now() - interval '1 second' where project_id = ${seeded.project.id} and key = 'q/expiring'`,
      );
      const now = await usageMatchesRows(seeded.project.id);
      // Full but for 100 bytes, the expired key's 2,000 and more among the bytes counted.
      await setUsage(seeded.project.id, now.usage.keys, MAX_BYTES - 100);
      // Before: QUOTA_EXCEEDED, though file_put with content_base64 of the same size was saved.
      expect((await call("file_put", { path: "q/after-expiry.bin", upload: { size: 500 } })).data.status).toBe("uploading");
      const after = await usageMatchesRows(seeded.project.id);
      expect(after.usage.keys).toBe(now.usage.keys - 1);
      await setUsage(seeded.project.id, after.rows.keys, after.rows.bytes);
    });
  });

  describe("concurrent writers", () => {
    it("keep one file per path when many write it at once, and never pass 1 GB together", async () => {
      const same = await Promise.all(Array.from({ length: 8 }, (_, i) => call("file_put", { path: "race/same.txt", content_base64: b64(`writer ${i}`) })));
      expect(same.filter((r) => r.error).map((r) => r.error)).toEqual([]);
      const listed = (await call("file_list", { prefix: "race/" })).data.items;
      expect(listed.map((i: { path: string }) => i.path)).toEqual(["race/same.txt"]);
      const content = Buffer.from((await call("file_get", { path: "race/same.txt" })).data.content_base64, "base64").toString();
      expect(content).toMatch(/^writer \d$/);

      const now = await usageMatchesRows(seeded.project.id);
      expect(now.usage).toEqual(now.rows);
      await setUsage(seeded.project.id, now.usage.keys, MAX_BYTES - 5 * 100);
      const many = await Promise.all(Array.from({ length: 12 }, (_, i) => rest("PUT", `/files/race%2F${i}.bin`, { content_base64: b64(new Uint8Array(100)) })));
      expect(many.filter((r) => r.status === 200)).toHaveLength(5);
      expect(many.filter((r) => r.body.error?.code === "QUOTA_EXCEEDED")).toHaveLength(7);
      const after = await usageMatchesRows(seeded.project.id);
      expect(after.usage.bytes).toBe(MAX_BYTES);
      await setUsage(seeded.project.id, after.rows.keys, after.rows.bytes);
    });
  });

  describe("bad input", () => {
    const traversal = [
      "../etc/passwd",
      "a/../b",
      "./a",
      "a/./b",
      "a//b",
      "/abs",
      "a/",
      "a\\b",
      "..",
      ".",
      "",
      "a\u0000b",
      "a\nb",
      "x".repeat(1025),
      `${"s".repeat(256)}/a`,
    ];
    it.each(traversal.map((p) => [JSON.stringify(p).slice(0, 40), p]))("refuses the path %s naming `path`", async (_label, path) => {
      for (const args of [
        { path, content_base64: "AA==" },
        { path, upload: { size: 1 } },
      ]) {
        const r = await call("file_put", args);
        expect(r.error).toMatchObject({ code: "validation_error" });
        expect(r.error.message.startsWith("path: ")).toBe(true);
      }
      for (const tool of ["file_get", "file_delete", "file_url"]) expect((await call(tool, { path })).error.code).toBe("validation_error");
    });

    // Under the limits as sent, over them in NFC, as stored: U+0958 is one code point (3 bytes) that NFC makes two
    // (6 bytes), U+FB2C one that NFC makes three (6 bytes).
    const overOnceNormalised: [string, string, RegExp][] = [
      ["a file name", `nfc-long/${"\u0958".repeat(85)}`, /^path: a file or folder name can be at most 255 bytes$/],
      ["a folder name", `${"\u0958".repeat(85)}/a.txt`, /^path: a file or folder name can be at most 255 bytes$/],
      ["a full path", Array.from({ length: 7 }, () => "\uFB2C".repeat(42)).join("/"), /^path: a full path .* at most 1024 bytes$/],
    ];
    it.each(overOnceNormalised)("refuses %s that fits as sent but not in NFC, on every way to a file, writing nothing", async (_what, path, why) => {
      expect(Buffer.byteLength(path)).toBeLessThanOrEqual(1024);
      expect(path.split("/").every((s) => Buffer.byteLength(s) <= 255)).toBe(true);
      const db = await getDb();
      const rows = async () =>
        (
          await query<{ n: number }>(
            db,
            sql`select (select count(*) from disk_files where project_id = ${seeded.project.id})
                     + (select count(*) from disk_uploads where project_id = ${seeded.project.id}) as n`,
          )
        )[0].n;
      const before = await rows();
      const open = (await call("file_put", { path: "nfc-long/ok.bin", upload: { size: 1 } })).data.upload_id;
      for (const args of [
        { path, content_base64: "AA==" },
        { path, upload: { size: 1 } },
        { path, complete: open },
      ]) {
        expect((await call("file_put", args)).error).toMatchObject({ code: "validation_error", message: expect.stringMatching(why) });
      }
      for (const tool of ["file_get", "file_delete", "file_url"]) {
        expect((await call(tool, { path })).error).toMatchObject({ code: "validation_error", message: expect.stringMatching(why) });
      }
      const viaRest = await rest("PUT", `/files/${encodeURIComponent(path)}`, { content_base64: "AA==" });
      expect([viaRest.status, viaRest.body.error.message]).toEqual([400, expect.stringMatching(why)]);
      // The dashboard's uploads and deletes hand the domain the name as the browser gave it.
      for (const run of [
        () => startUpload(db, { actor: seeded.actor, path, size: 1, via: "brynth" }),
        () => completeUpload(db, { actor: seeded.actor, path, uploadId: open }),
        () => deleteFile(db, { actor: seeded.actor, path }),
      ]) {
        await expect(run()).rejects.toMatchObject({ code: "validation_error", message: expect.stringMatching(why) });
      }
      expect(await rows()).toBe(before + 1);
      await call("file_put", { path: "nfc-long/ok.bin", content_base64: "AA==" });
      await call("file_delete", { path: "nfc-long/ok.bin" });
    });

    it("takes a valid path sent decomposed (NFD), however much longer than as stored, and lists it by its NFD prefix", async () => {
      // ǖ is 2 bytes composed and three code points (5 bytes) decomposed: 1,004 bytes stored, 1,504 characters as sent.
      const nfc = Array.from({ length: 5 }, () => "\u01D6".repeat(100)).join("/");
      const nfd = nfc.normalize("NFD");
      expect([Buffer.byteLength(nfc), nfd.length]).toEqual([1004, 1504]);
      expect((await call("file_put", { path: nfd, content_base64: b64("u") })).data.path).toBe(nfc);
      expect((await call("file_get", { path: `disk://${nfd}` })).data.path).toBe(nfc);
      const listed = (await call("file_list", { prefix: nfd })).data.items.map((i: { path: string }) => i.path);
      expect(listed).toEqual([nfc]);
      expect((await call("file_delete", { path: nfd })).data.deleted).toBe(true);
    });

    it("refuses traversal over REST too, never touching another path", async () => {
      for (const p of ["..%2Fx", "a%2F..%2Fb", "a%5Cb", "a%2F%2Fb"]) {
        const r = await rest("PUT", `/files/${p}`, { content_base64: "AA==" });
        expect(r.status).toBe(400);
        expect(r.body.error.code).toBe("validation_error");
      }
    });

    const cases: [string, Record<string, unknown>, string][] = [
      ["invalid base64", { path: "b.bin", content_base64: "not base64!" }, "content_base64"],
      ["base64 without padding", { path: "b.bin", content_base64: "AAA" }, "content_base64"],
      ["over 1 MB decoded", { path: "b.bin", content_base64: b64(new Uint8Array(1024 * 1024 + 1)) }, "content_base64"],
      ["both content_base64 and upload", { path: "b.bin", content_base64: "AA==", upload: { size: 1 } }, "upload"],
      ["neither content_base64 nor upload", { path: "b.bin" }, "content_base64"],
      ["upload and complete", { path: "b.bin", upload: { size: 1 }, complete: "upl_x" }, "complete"],
      ["upload.size over 100 MB", { path: "b.bin", upload: { size: 100 * 1024 * 1024 + 1 } }, "upload.size"],
      ["a negative upload.size", { path: "b.bin", upload: { size: -1 } }, "upload.size"],
      ["a bad content_type", { path: "b.bin", content_base64: "AA==", content_type: "not a type" }, "content_type"],
      ["a bad upload.content_type", { path: "b.bin", upload: { size: 1, content_type: "text/html\r\nX: y" } }, "upload.content_type"],
      ["a bad content_type standing in for upload's", { path: "b.bin", upload: { size: 1 }, content_type: "not a type" }, "content_type"],
    ];
    it.each(cases)("file_put refuses %s", async (_what, args, field) => {
      const r = await call("file_put", args);
      expect(r.error).toMatchObject({ code: "validation_error" });
      expect(r.error.message.startsWith(`${field}: `)).toBe(true);
    });

    it("accepts exactly 1 MB inline and 100 MB announced", async () => {
      expect((await call("file_put", { path: "limits/1mb.bin", content_base64: b64(new Uint8Array(1024 * 1024)) })).data.size_bytes).toBe(1024 * 1024);
      expect((await call("file_put", { path: "limits/100mb.bin", upload: { size: 100 * 1024 * 1024 } })).data.status).toBe("uploading");
    });

    it.each([[59], [604_801], [1.5]])("file_url refuses expires_in %s", async (expires_in) => {
      const r = await call("file_url", { path: "wrapped.txt", expires_in });
      expect(r.error.code).toBe("validation_error");
      expect(r.error.message.startsWith("expires_in: ")).toBe(true);
    });

    it("file_url refuses wait_seconds outside 0–120 and an approval that does not exist", async () => {
      expect((await call("file_url", { path: "wrapped.txt", wait_seconds: 121 })).error.message).toMatch(/^wait_seconds: /);
      expect((await call("file_url", { path: "wrapped.txt", approval: "req_missing" })).error.code).toBe("NOT_FOUND");
      expect((await call("file_url", { path: "missing.txt" })).error.code).toBe("NOT_FOUND");
    });
  });

  if (store === "local") {
    describe("the local store's upload URL", () => {
      it("takes only the announced Content-Type and size, with a valid unexpired token", async () => {
        const u = (await call("file_put", { path: "strict.bin", upload: { size: 4, content_type: "image/png" } })).data;
        const put = (headers: Record<string, string>, bytes: Uint8Array, url = u.upload_url) => fetch(url, { method: "PUT", headers, body: body(bytes) });
        const wrongType = await put({ "Content-Type": "text/html" }, new Uint8Array(4));
        expect(wrongType.status).toBe(400);
        expect((await wrongType.json()).error.message).toMatch(/Content-Type must be image\/png/);
        expect((await put({ "Content-Type": "image/png" }, new Uint8Array(5))).status).toBe(400);
        const [payload, mac] = u.upload_url.split("/").pop().split(".");
        const forged = Buffer.from(JSON.stringify({ u: u.upload_id, e: 4102444800 })).toString("base64url");
        expect((await put({ "Content-Type": "image/png" }, new Uint8Array(4), u.upload_url.replace(payload, forged))).status).toBe(403);
        expect((await put({ "Content-Type": "image/png" }, new Uint8Array(4), u.upload_url.replace(mac, "x"))).status).toBe(403);
        expect((await fetch(u.upload_url, { method: "OPTIONS" })).headers.get("access-control-allow-methods")).toContain("PUT");
        expect((await put({ "Content-Type": "image/png" }, new Uint8Array(4))).status).toBe(200);
        expect((await call("file_put", { path: "strict.bin", complete: u.upload_id })).data.content_type).toBe("image/png");
      });
    });
  }

  it("keeps usage equal to the rows after all of the above", async () => {
    const { usage, rows } = await usageMatchesRows(seeded.project.id);
    expect(usage).toEqual(rows);
  });
}
