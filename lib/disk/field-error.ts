import { AppError } from "@/lib/errors";

/** A validation_error naming one field, shaped like the ones zod failures produce (lib/validation.ts). */
export function fieldError(field: string, message: string, fix?: string): AppError {
  return new AppError("validation_error", `${field}: ${message}`, {
    fix: fix ?? "Correct the named field and retry.",
    details: [{ field, message }],
  });
}
