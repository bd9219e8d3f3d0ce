import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** A zod failure as a validation_error that names each field, e.g. "limit: Too big: expected number to be <=500". */
export function validationError(error: z.ZodError): AppError {
  const issues = error.issues.map((i) => {
    const path = i.path.join(".");
    if (i.code === "unrecognized_keys") {
      const keys = i.keys.join(", ");
      return { field: path || keys, message: `Unknown argument${i.keys.length > 1 ? "s" : ""}: ${keys}` };
    }
    return { field: path || "(input)", message: i.message };
  });
  const message = issues.map((i) => (i.field === "(input)" ? i.message : `${i.field}: ${i.message}`)).join("; ");
  const err = new AppError("validation_error", message, {
    fix: "Correct the named fields and retry; the tool's input schema lists every accepted argument.",
    details: issues,
  });
  // Kept out of the rendered body (not enumerable): the dashboard words each issue for its form (lib/forms/plain-issue.ts).
  Object.defineProperty(err, "zodIssues", { value: error.issues, enumerable: false });
  return err;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
