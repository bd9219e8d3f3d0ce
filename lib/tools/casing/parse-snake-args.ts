import { z } from "zod";
import { keyPlan } from "@/lib/tools/casing/key-plan";
import { fromSnakeKeys, snakePath, type UnknownKeys } from "@/lib/tools/casing/rename-keys";
import { validationError } from "@/lib/validation";

/**
 * Parses arguments a caller wrote in snake_case with a schema written in camelCase. The caller's casing is the only
 * one accepted (`inboxId` is an unknown argument here), and every error names the field as the caller wrote it
 * (`attachments.0.content_type`), so the message is the same validation_error `parseOrThrow` gives in camelCase.
 */
export function parseSnakeArgs<S extends z.ZodType>(schema: S, args: unknown): z.output<S> {
  const plan = keyPlan(schema, "input");
  const unknown: UnknownKeys[] = [];
  const parsed = schema.safeParse(fromSnakeKeys(plan, args, unknown));
  if (parsed.success && unknown.length === 0) return parsed.data;
  const issues: z.core.$ZodIssue[] = (parsed.error?.issues ?? []).map((issue) => ({ ...issue, path: snakePath(plan, issue.path) }));
  // After the schema's own issues, where zod reports a strict object's unknown keys in camelCase.
  const unknownIssues: z.core.$ZodIssue[] = unknown.map(({ path, keys }) => ({
    code: "unrecognized_keys",
    keys,
    path,
    message: `Unrecognized key${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}`,
    input: undefined,
  }));
  throw validationError(new z.ZodError([...issues, ...unknownIssues]));
}
