import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fsBlobStore } from "@/lib/blob/fs";
import { getBlobStore } from "@/lib/blob/get-blob-store";
import type { BlobStore } from "@/lib/blob/store";
import { startS3rver } from "@/lib/testing/s3rver";

/** The same contract for both stores: the local filesystem and S3 (through s3rver and the AWS SDK). */
let s3: Awaited<ReturnType<typeof startS3rver>>;
const root = mkdtempSync(join(tmpdir(), "brynth-blobs-"));
const stores: Record<string, () => Promise<BlobStore>> = {
  fs: async () => fsBlobStore(root),
  s3: () => getBlobStore(),
};

beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3.close());

const streamOf = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      chunks.forEach((x) => c.enqueue(x));
      c.close();
    },
  });
const text = async (store: BlobStore, key: string) => {
  const got = await store.get(key);
  return got ? { size: got.size, text: await new Response(got.body).text() } : null;
};

describe.each(Object.keys(stores))("%s store", (name) => {
  let store: BlobStore;
  beforeAll(async () => {
    store = await stores[name]();
    expect(store.kind).toBe(name);
  });

  it("deletes everything under a prefix, nothing beside it (a longer id sharing its start included), idempotently", async () => {
    const bytes = new TextEncoder().encode("x");
    const under = ["projects/prj_p/blobs/a", "projects/prj_p/mail/b", "projects/prj_p/mail/c"];
    const beside = ["projects/prj_p2/blobs/a", "projects/prj_q/blobs/a"];
    for (const key of [...under, ...beside]) await store.put(key, bytes, { size: 1, contentType: "text/plain" });
    await store.deletePrefix("projects/prj_p");
    await store.deletePrefix("projects/prj_p");
    for (const key of under) expect(await store.head(key)).toBeNull();
    for (const key of beside) expect(await store.head(key)).toEqual({ size: 1 });
    await expect(store.deletePrefix("projects/../x")).rejects.toThrow(/invalid blob key/);
  });

  it("puts, heads, gets and deletes (idempotently)", async () => {
    const key = "projects/prj_t/blobs/a1";
    await store.put(key, new TextEncoder().encode("hello"), { size: 5, contentType: "text/plain" });
    expect(await store.head(key)).toEqual({ size: 5 });
    expect(await text(store, key)).toEqual({ size: 5, text: "hello" });
    await store.delete(key);
    await store.delete(key);
    expect(await store.head(key)).toBeNull();
    expect(await store.get(key)).toBeNull();
  });

  it("streams a body in chunks and refuses one of another size, keeping nothing", async () => {
    const key = "projects/prj_t/blobs/stream";
    const enc = new TextEncoder();
    await store.put(key, streamOf([enc.encode("ab"), enc.encode("cd")]), { size: 4, contentType: "text/plain" });
    expect((await text(store, key))?.text).toBe("abcd");
    const short = "projects/prj_t/blobs/short";
    await expect(store.put(short, streamOf([enc.encode("abc")]), { size: 4, contentType: "text/plain" })).rejects.toThrow();
    await expect(store.put(short, streamOf([enc.encode("abcde")]), { size: 4, contentType: "text/plain" })).rejects.toThrow();
    await expect(store.put(short, enc.encode("abc"), { size: 4, contentType: "text/plain" })).rejects.toThrow(/3 bytes/);
    // Never a whole object of the declared size (s3rver may keep an empty one for an aborted PUT; S3 keeps nothing).
    expect((await store.head(short))?.size ?? null).not.toBe(4);
    if (name === "fs") expect(await store.head(short)).toBeNull();
  });

  it("refuses keys that are not id paths", async () => {
    for (const key of ["../etc/passwd", "projects/../../x", "projects/a/./b", "/abs/key", "projects\\a", "one", "projects/a b", "projects/é", "projects//a"]) {
      await expect(store.put(key, new Uint8Array(1), { size: 1, contentType: "x/y" })).rejects.toThrow(/invalid blob key/);
      await expect(store.head(key)).rejects.toThrow(/invalid blob key/);
    }
  });
});

it("writes the local store only under its root, without temporary files left behind", async () => {
  const store = fsBlobStore(root);
  await store.put("projects/prj_t/blobs/kept", new Uint8Array(3), { size: 3, contentType: "x/y" });
  await expect(store.put("projects/prj_t/blobs/bad", new Uint8Array(2), { size: 3, contentType: "x/y" })).rejects.toThrow();
  expect(readdirSync(join(root, "projects/prj_t/blobs")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
});

it("the local store writes again into a directory removed since its last write there", async () => {
  const store = fsBlobStore(root);
  await store.put("projects/prj_gone/mail/one", new TextEncoder().encode("one"), { size: 3, contentType: "x/y" });
  rmSync(join(root, "projects/prj_gone"), { recursive: true });
  await store.put("projects/prj_gone/mail/two", new TextEncoder().encode("two"), { size: 3, contentType: "x/y" });
  expect(await text(store, "projects/prj_gone/mail/two")).toEqual({ size: 3, text: "two" });
  expect(await store.get("projects/prj_gone/mail/one")).toBeNull();
});

it("presigns S3 uploads that a plain fetch PUT can use", async () => {
  const store = await getBlobStore();
  const key = "projects/prj_t/blobs/presigned";
  const { url, headers } = await store.presignPut!(key, { size: 3, contentType: "image/png", expiresIn: 60 });
  expect(url).toMatch(/X-Amz-Signature=/);
  expect(headers).toEqual({ "Content-Type": "image/png" });
  const res = await fetch(url, { method: "PUT", headers, body: new Blob([new Uint8Array([1, 2, 3])]) });
  expect(res.status).toBe(200);
  expect(await store.head(key)).toEqual({ size: 3 });
});
