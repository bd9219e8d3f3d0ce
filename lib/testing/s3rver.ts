import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { resetEnvCache } from "@/lib/env";

const S3_VARS = ["S3_BUCKET", "S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"];

/**
 * A real S3 protocol server (s3rver) on a random port with a fresh directory, and the S3_* configuration pointing
 * at it, so the blob store in this process is S3. close() stops it and restores the local store.
 */
export async function startS3rver(bucket = "brynth"): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), "brynth-s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
  });
  resetEnvCache();
  return {
    endpoint,
    close: async () => {
      // The SDK keeps sockets alive; close() would wait for them to time out.
      const closing = server.close();
      server.httpServer?.closeAllConnections();
      await closing;
      for (const v of S3_VARS) delete process.env[v];
      resetEnvCache();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
