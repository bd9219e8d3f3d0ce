import { z } from "zod";
import { pathText } from "@/lib/disk/path-rules";

/**
 * Standard base64 with its padding. A flat character class plus a length check, not a repeated 4-character group:
 * V8 overflows its stack matching such a group over a few MB (seen at 5 MB of content), an internal_error.
 */
const isBase64 = (v: string) => v.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(v);

/** One attachment: its bytes inline (base64), or a file Brynth already holds (a disk path, `disk://…`, `evt_…/name`). */
export const attachmentInput = z
  .object({
    filename: z.string().min(1).max(255).optional().describe("The file name the recipient sees; required with `content`."),
    contentType: z
      .string()
      .min(3)
      .max(255)
      .regex(/^[\w.+-]+\/[\w.+-]+$/, "must be a MIME type like text/plain")
      // nodemailer builds a multipart/* part as a container with its own boundary: the file's bytes went into its
      // preamble and the recipient got no file, while the send answered queued (found by helper-118).
      .refine((v) => !/^multipart\//i.test(v), "must not be multipart/*: give the file's own type, or application/octet-stream")
      .optional(),
    content: z.string().optional().describe("The bytes, base64. The whole MCP request is capped at 2 MB: attach larger files by `path`."),
    path: pathText().min(1).optional().describe("A disk path, `disk://` reference or inbound attachment `evt_…/name`."),
  })
  .strict()
  .superRefine((a, ctx) => {
    if ((a.content === undefined) === (a.path === undefined)) ctx.addIssue({ code: "custom", message: "give exactly one of content and path" });
    if (a.content !== undefined && !a.filename) ctx.addIssue({ code: "custom", path: ["filename"], message: "is required with content" });
    if (a.content !== undefined && !isBase64(a.content)) ctx.addIssue({ code: "custom", path: ["content"], message: "is not valid base64" });
  });
export type AttachmentInput = z.output<typeof attachmentInput>;

/** Decoded size of base64 text, without decoding it. */
export const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
