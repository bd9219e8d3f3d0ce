import { z } from "zod";
import { completeUpload } from "@/lib/disk/complete-upload";
import { fieldError } from "@/lib/disk/field-error";
import { contentTypeProblem } from "@/lib/disk/file-input";
import { putFile } from "@/lib/disk/put-file";
import { startUpload } from "@/lib/disk/start-upload";
import { UPLOAD_MAX_BYTES } from "@/lib/disk/limits";
import { defineTool } from "@/lib/tools/define-tool";
import { writes } from "@/lib/tools/fields";
import { fileShape, pathField } from "@/lib/tools/disk/disk-fields";

const optional = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };

export const filePut = defineTool({
  name: "file_put",
  family: "brynth",
  scope: "disk",
  description:
    "Saves a file in the project disk at `path`, shared by every agent and platform with a `disk` key. Pass exactly one of: `content_base64` (standard base64, up to 1 MB decoded) with an optional `content_type`; or `upload: {size, content_type}` for files up to 100 MB, which answers `{status: uploading, upload_id, upload_url, upload_headers, expires_at}`: PUT the bytes to `upload_url` with exactly `upload_headers` within 15 minutes, then call again with `complete: upload_id` (`UPLOAD_INCOMPLETE` while the object is missing or of another size). At most 3 open uploads per path (`UPLOAD_LIMIT`): complete one or let it expire. An upload whose path was written or deleted meanwhile is dropped: `complete` answers `NOT_FOUND`. Saving a path replaces the file and revokes its links; until then the old file stays readable. Paths starting with `evt_` are reserved (`PATH_RESERVED`); 1 GB per project (`QUOTA_EXCEEDED`). Returns `{path, ref, size_bytes, content_type, updated_at}`; `ref` (`disk://…`) also works as `path`.",
  input: z
    .object({
      path: pathField,
      content_base64: z.string().optional().describe("The file bytes in standard base64 with `=` padding, up to 1 MB decoded."),
      content_type: z.string().optional().describe("MIME type of `content_base64`, e.g. `application/pdf`. Default `application/octet-stream`."),
      upload: z
        .object({
          size: z.number().int().min(0).max(UPLOAD_MAX_BYTES).describe("Exact size of the file in bytes, up to 104857600 (100 MB)."),
          content_type: z.string().optional().describe("MIME type of the file. Default `application/octet-stream`."),
        })
        .strict()
        .optional()
        .describe("Starts a presigned upload, for files over 1 MB: the answer carries `upload_url` and `upload_headers`."),
      complete: z.string().min(1).max(100).optional().describe("The `upload_id` of a presigned upload whose PUT is done: the file is saved."),
    })
    .strict()
    .superRefine((v, ctx) => {
      const given = (["content_base64", "upload", "complete"] as const).filter((k) => v[k] !== undefined);
      if (given.length !== 1) {
        ctx.addIssue({
          code: "custom",
          path: [given[1] ?? "content_base64"],
          message: `pass exactly one of content_base64, upload or complete (got ${given.length ? given.join(" and ") : "none"})`,
        });
      }
    }),
  output: z.object({
    status: z.enum(["saved", "uploading"]).describe("`saved`: the file is stored; `uploading`: PUT the bytes, then complete."),
    ...optional(fileShape),
    upload_id: z.string().optional(),
    upload_url: z.string().optional(),
    upload_headers: z.record(z.string(), z.string()).optional(),
    expires_at: z.string().optional(),
  }),
  annotations: { ...writes, title: "Write a file" },
  rest: { method: "PUT", path: "/files/{path}" },
  example: { path: "examples/hello.txt", content_base64: "aGVsbG8=", content_type: "text/plain" },
  handler: async (ctx, input) => {
    ctx.subject = input.path;
    const actor = ctx.actor;
    if (input.upload) {
      // The top-level content_type stands in for upload.content_type: a bad one is named as the caller sent it.
      const fallback = input.upload.content_type === undefined && input.content_type !== undefined && contentTypeProblem(input.content_type);
      if (fallback) throw fieldError("content_type", fallback);
      const started = await startUpload(ctx.db, {
        actor,
        path: input.path,
        size: input.upload.size,
        contentType: input.upload.content_type ?? input.content_type,
      });
      ctx.subject = started.upload_id;
      return started;
    }
    if (input.complete) return completeUpload(ctx.db, { actor, path: input.path, uploadId: input.complete });
    return putFile(ctx.db, { actor, path: input.path, contentBase64: input.content_base64!, contentType: input.content_type });
  },
});
