import { getBlobStore } from "@/lib/blob/get-blob-store";
import { randomBase62 } from "@/lib/ids";

/** Mail bytes (raw messages, attachments) live under the project's `mail/` prefix, keyed by random ids only. */
export async function putMailBlob(projectId: string, bytes: Uint8Array, contentType: string): Promise<string> {
  const key = `projects/${projectId}/mail/${randomBase62(24)}`;
  await (await getBlobStore()).put(key, bytes, { size: bytes.byteLength, contentType });
  return key;
}

export async function readMailBlob(key: string): Promise<Buffer> {
  const found = await (await getBlobStore()).get(key);
  if (!found) throw new Error(`mail blob ${key} is missing from the blob store`);
  return Buffer.from(await new Response(found.body).arrayBuffer());
}

/** Postgres text cannot hold NUL; mail from outside sometimes does. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point of this function
export const noNul = <T extends string | null>(s: T): T => (s === null ? s : (s.replace(/\u0000/g, "") as T));
