import { randomBase62 } from "@/lib/ids";
import { refOf } from "@/lib/disk/path-rules";

/** Object keys come from ids only, so nothing an agent sends can leave the project's prefix on either store. */
export const newBlobKey = (projectId: string) => `projects/${projectId}/blobs/${randomBase62(24)}`;

export interface FileMeta {
  path: string;
  sizeBytes: number;
  contentType: string;
  updatedAt: Date;
}

/** The spec's file shape: `{path, ref, size_bytes, content_type, updated_at}`. */
export const fileView = (f: FileMeta) => ({
  path: f.path,
  ref: refOf(f.path),
  size_bytes: f.sizeBytes,
  content_type: f.contentType,
  updated_at: f.updatedAt.toISOString(),
});
