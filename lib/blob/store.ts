/**
 * Where file bytes live: the local filesystem (default) or S3. Keys are built by lib/disk from ids only
 * (`projects/<project>/blobs/<id>`), never from agent paths; each store still refuses any other shape.
 */
export interface BlobStore {
  readonly kind: "fs" | "s3";
  /** Writes the whole object; a stream must deliver exactly `size` bytes or the write fails and nothing is kept. */
  put(key: string, body: Uint8Array | ReadableStream<Uint8Array>, opts: { size: number; contentType: string }): Promise<void>;
  /** The object as a stream, or null when it does not exist. */
  get(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number } | null>;
  head(key: string): Promise<{ size: number } | null>;
  /** Puts the bytes of `from` under the new key `to` as well (server-side on S3); throws when `from` is missing. */
  copy(from: string, to: string): Promise<void>;
  /** Idempotent: deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Deletes every object under `<prefix>/` (a deleted project's `projects/<id>`), however it got there: rows may
   * never have pointed at some (a message whose transaction failed). Idempotent; throws when the store does.
   */
  deletePrefix(prefix: string): Promise<void>;
  /** A URL the client PUTs the bytes to directly (S3); absent when uploads go through Brynth (local store). */
  presignPut?(key: string, opts: { size: number; contentType: string; expiresIn: number }): Promise<{ url: string; headers: Record<string, string> }>;
}

/** The only key shape a store accepts: id segments of [A-Za-z0-9_-], no dots, so nothing can climb out. */
export const BLOB_KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+){1,7}$/;

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY.test(key)) throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
}

/** Counts bytes through a stream and fails it once more than `size` arrive or fewer than `size` at the end. */
export function exactSize(size: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > size) controller.error(new BlobSizeError(`more than the declared ${size} bytes`));
      else controller.enqueue(chunk);
    },
    flush(controller) {
      if (seen !== size) controller.error(new BlobSizeError(`${seen} bytes instead of the declared ${size}`));
    },
  });
}

export class BlobSizeError extends Error {}
