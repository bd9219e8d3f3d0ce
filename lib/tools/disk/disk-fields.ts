import { z } from "zod";
import { keyProblem, prefixProblem } from "@/lib/disk/key-rules";
import {
  LINK_DEFAULT_SECONDS,
  LINK_MAX_SECONDS,
  LINK_MIN_SECONDS,
  PAGE_DEFAULT,
  PAGE_MAX,
  PATH_MAX_BYTES,
  SEGMENT_MAX_BYTES,
  TTL_MAX_SECONDS,
} from "@/lib/disk/limits";
import { diskPath, diskPrefix, pathProblem, pathText } from "@/lib/disk/path-rules";
import { taskIdProblem } from "@/lib/disk/save-state";
import { pageLimit } from "@/lib/tools/fields";

/** A zod check from one of lib/disk's `…Problem` rules, so the validation_error names the field. */
const rule = (problem: (v: string) => string | null) => (v: string, ctx: z.core.$RefinementCtx<string>) => {
  const p = problem(v);
  if (p) ctx.addIssue({ code: "custom", message: p });
};

export const keyField = z
  .string()
  .superRefine(rule(keyProblem))
  .describe("The key: 1 to 512 bytes of UTF-8, no control characters. Use `/` to group keys, e.g. `orders/1042`.");

export const taskIdField = z
  .string()
  .superRefine(rule(taskIdProblem))
  .describe("Your ID for the task, e.g. `refund-1042`: the state lives at key `state/{task_id}` (512 bytes at most).");

/** A file path or its `disk://` reference, as the plain path in the spelling files are stored under (diskPath). */
export const pathField = pathText()
  .transform(diskPath)
  .superRefine(rule(pathProblem))
  // The byte limits are checked after NFC (pathProblem), which JSON Schema cannot express: said in words instead.
  .describe(
    `The file path, e.g. \`reports/2026-09.pdf\`, or its \`disk://\` reference: at most ${PATH_MAX_BYTES} bytes of UTF-8, each folder or file name at most ${SEGMENT_MAX_BYTES}. Paths starting with \`evt_\` are inbound attachments.`,
  );

/** file_list's prefix, spelled as stored paths are (diskPrefix) before its length is checked, as a path is. */
export const pathPrefixField = (description: string) =>
  pathText()
    .transform(diskPrefix)
    .superRefine(rule((p) => prefixProblem(p, PATH_MAX_BYTES)))
    .default("")
    .describe(description);

export const prefixField = (maxBytes: number, description: string) =>
  z
    .string()
    .superRefine(rule((p) => prefixProblem(p, maxBytes)))
    .default("")
    .describe(description);

export const cursorField = z.string().max(4096).optional().describe("`next_cursor` of the previous page, unchanged.");
export const limitField = pageLimit(PAGE_MAX, PAGE_DEFAULT);

export const ttlField = z
  .number()
  .int()
  .min(1)
  .max(TTL_MAX_SECONDS)
  .optional()
  .describe("Optional: the key expires after this many seconds (1 to 31536000, one year). Without it the key lives until `kv_delete`.");

/** Versions are a Postgres `integer` column: a larger `if_version` can match none, and the column's cast would fail. */
const VERSION_MAX = 2_147_483_647;

export const ifVersionField = z
  .number()
  .int()
  .min(0)
  .max(VERSION_MAX)
  .optional()
  .describe(
    "Optional: the `version` you last read. The write fails with CONFLICT if the stored version differs (0: only if the key does not exist yet), so two agents cannot silently overwrite each other. Over REST, `If-Match` with the ETag works the same.",
  );

export const expiresInField = z
  .number()
  .int()
  .min(LINK_MIN_SECONDS)
  .max(LINK_MAX_SECONDS)
  .default(LINK_DEFAULT_SECONDS)
  .describe("Seconds the link stays valid: 60 to 604800 (7 days). Default 3600.");

export const nullableIso = z.string().nullable();

export const fileShape = {
  path: z.string(),
  ref: z.string().describe("`disk://…` reference; also works as `path`."),
  size_bytes: z.number().int(),
  content_type: z.string(),
  updated_at: z.string(),
};
