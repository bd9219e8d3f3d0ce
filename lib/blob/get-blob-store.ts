import { join } from "node:path";
import { env } from "@/lib/env";
import type { BlobStore } from "@/lib/blob/store";

const g = globalThis as { __brynthBlobStore?: { config: string; store: Promise<BlobStore> } };

/**
 * The configured store, once per process (on globalThis: Next bundles routes apart from server.ts). S3 when
 * S3_BUCKET is set, else the filesystem under DATA_DIR/blobs. The S3 module loads only when configured.
 */
export function getBlobStore(): Promise<BlobStore> {
  const e = env();
  const config = JSON.stringify([e.S3_BUCKET, e.S3_ENDPOINT, e.S3_REGION, e.S3_ACCESS_KEY_ID, e.S3_FORCE_PATH_STYLE, e.DATA_DIR]);
  if (g.__brynthBlobStore?.config !== config) g.__brynthBlobStore = { config, store: open() };
  return g.__brynthBlobStore.store;
}

async function open(): Promise<BlobStore> {
  const e = env();
  if (e.S3_BUCKET) {
    const { s3BlobStore } = await import("@/lib/blob/s3");
    return s3BlobStore({
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    });
  }
  const { fsBlobStore } = await import("@/lib/blob/fs");
  return fsBlobStore(join(e.DATA_DIR, "blobs"));
}
