import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { assertBlobKey, BlobSizeError, exactSize, type BlobStore } from "@/lib/blob/store";

export interface S3Config {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

const notFound = (err: unknown) =>
  err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === "NoSuchKey" || err.name === "NotFound");

/**
 * S3 or any S3-compatible service; the only importer of the AWS SDK. Checksums only when an operation requires
 * them: the SDK's default trailing checksums (aws-chunked uploads) are refused by several S3-compatible servers.
 */
export function s3BlobStore(cfg: S3Config): BlobStore {
  const client = new S3Client({
    region: cfg.region,
    endpoint: cfg.endpoint,
    forcePathStyle: cfg.forcePathStyle,
    credentials: cfg.accessKeyId && cfg.secretAccessKey ? { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } : undefined,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  // DeleteObjects must carry a checksum; the SDK sends CRC32, which MinIO and several other S3-compatible servers
  // refuse (MissingContentMD5, aws/aws-sdk-js-v3#6920). Content-MD5 is what every one of them and S3 accept, so
  // that request carries it instead (the SDK's MD5_FALLBACK recipe), before it is signed.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown };
      if (context.commandName === "DeleteObjectsCommand" && request.headers && typeof request.body === "string") {
        for (const h of Object.keys(request.headers)) if (/^x-amz-(sdk-)?checksum-/i.test(h)) delete request.headers[h];
        request.headers["content-md5"] = createHash("md5").update(request.body).digest("base64");
      }
      return next(args);
    },
    { step: "finalizeRequest", name: "brynthDeleteObjectsMd5" },
  );
  const Bucket = cfg.bucket;

  return {
    kind: "s3",
    async put(key, body, { size, contentType }) {
      assertBlobKey(key);
      if (body instanceof Uint8Array && body.byteLength !== size) {
        throw new BlobSizeError(`${body.byteLength} bytes instead of the declared ${size}`);
      }
      const command = (Body: Uint8Array | Readable) => new PutObjectCommand({ Bucket, Key: key, Body, ContentLength: size, ContentType: contentType });
      if (body instanceof Uint8Array) {
        await client.send(command(body));
        return;
      }
      // A body of the wrong size (or a client gone mid-upload) must abort the request: the SDK would otherwise wait
      // for bytes that never come. S3 then keeps nothing.
      const abort = new AbortController();
      let failure: unknown;
      const stream = Readable.fromWeb(body.pipeThrough(exactSize(size)) as import("node:stream/web").ReadableStream);
      stream.on("error", (err) => {
        failure = err;
        abort.abort(err);
      });
      try {
        await client.send(command(stream), { abortSignal: abort.signal });
      } catch (err) {
        // Some S3-compatible servers keep what arrived before the abort: nothing may stay under this key.
        if (failure) await client.send(new DeleteObjectCommand({ Bucket, Key: key })).catch(() => {});
        throw failure ?? err;
      }
    },
    async get(key) {
      assertBlobKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!out.Body) return null;
        return { size: Number(out.ContentLength ?? 0), body: out.Body.transformToWebStream() as ReadableStream<Uint8Array> };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async head(key) {
      assertBlobKey(key);
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: Number(out.ContentLength ?? 0) };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async copy(from, to) {
      assertBlobKey(from);
      assertBlobKey(to);
      // Keys are [A-Za-z0-9_/-] only (BLOB_KEY): nothing in the copy source needs encoding.
      await client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${from}` }));
    },
    async delete(key) {
      assertBlobKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    // A page of keys at a time (at most 1,000, what one DeleteObjects takes); a key S3 could not delete fails the
    // call, so the caller tries the prefix again rather than believing it empty.
    async deletePrefix(prefix) {
      assertBlobKey(prefix);
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${prefix}/`, ContinuationToken: token }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length > 0) {
          const out = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
          if (out.Errors?.length) throw new Error(`S3 kept ${out.Errors.length} objects under ${prefix}/: ${out.Errors[0].Code} ${out.Errors[0].Message}`);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    // Content-Type and Content-Length are signed: S3 refuses a PUT of another type or size.
    async presignPut(key, { size, contentType, expiresIn }) {
      assertBlobKey(key);
      const command = new PutObjectCommand({ Bucket, Key: key, ContentType: contentType, ContentLength: size });
      const url = await getSignedUrl(client, command, {
        expiresIn,
        signableHeaders: new Set(["content-type", "content-length"]),
      });
      return { url, headers: { "Content-Type": contentType } };
    },
  };
}
