import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { link, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomBase62 } from "@/lib/ids";
import { assertBlobKey, BlobSizeError, exactSize, type BlobStore } from "@/lib/blob/store";

/**
 * Objects as files under one root (DATA_DIR/blobs). Writes go to a temporary name and are renamed into place, so a
 * reader never sees half a file and a failed upload leaves nothing behind.
 */
export function fsBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const fileOf = (key: string) => {
    assertBlobKey(key);
    const file = join(base, key);
    if (!file.startsWith(base + sep)) throw new Error("blob key escapes the store");
    return file;
  };
  const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT";
  /**
   * Directories this store has made. A write of bytes into one skips its mkdir, a trip to the thread pool that
   * every inbound message and attachment paid (they share a directory per project); if the directory has gone
   * since, the write fails with ENOENT and is made again once. Bounded: forgotten wholesale past 10,000.
   */
  const made = new Set<string>();
  const writeInDirectory = async (dir: string, write: () => Promise<void>) => {
    if (made.has(dir)) {
      try {
        return await write();
      } catch (err) {
        if (!missing(err)) throw err;
        made.delete(dir);
      }
    }
    await mkdir(dir, { recursive: true });
    if (made.size >= 10_000) made.clear();
    made.add(dir);
    await write();
  };

  return {
    kind: "fs",
    async put(key, body, { size }) {
      const file = fileOf(key);
      const tmp = `${file}.${randomBase62(8)}.tmp`;
      let out: WriteStream | undefined;
      try {
        if (body instanceof Uint8Array) {
          if (body.byteLength !== size) throw new BlobSizeError(`${body.byteLength} bytes instead of the declared ${size}`);
          await writeInDirectory(dirname(file), () => writeFile(tmp, body));
        } else {
          await mkdir(dirname(file), { recursive: true });
          const counted = body.pipeThrough(exactSize(size));
          out = createWriteStream(tmp);
          await pipeline(Readable.fromWeb(counted as import("node:stream/web").ReadableStream), out);
        }
        await rename(tmp, file);
      } catch (err) {
        // A failed pipeline may still be opening the file: remove it only once the stream has closed.
        if (out && !out.closed) await new Promise<void>((resolve) => out!.once("close", () => resolve()));
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const { size } = await stat(file);
        const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
        return { size, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async head(key) {
      try {
        return { size: (await stat(fileOf(key))).size };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    // A hard link costs nothing, and stays a copy: every write renames a new file into place, never rewriting bytes.
    async copy(from, to) {
      const target = fileOf(to);
      await writeInDirectory(dirname(target), () => link(fileOf(from), target));
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    // The prefix is a directory here: one recursive removal. A later write into it makes the directory again.
    async deletePrefix(prefix) {
      const dir = fileOf(prefix);
      await rm(dir, { recursive: true, force: true });
      made.clear();
    },
  };
}
