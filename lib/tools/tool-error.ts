import type { AppError } from "@/lib/errors";

const COMMITTED_ERROR = Symbol("brynth.committedError");

/**
 * Design D6: an error that commits. A handler returns `toolError(err)` instead of throwing when what it wrote must
 * stay (a send held for approval leaves its draft and request behind and still answers `approval_required`). runTool
 * commits the transaction, records the call in the ledger with the error as its output, then reports the error.
 * Typed `never`, so it fits any handler's return type.
 */
export function toolError(err: AppError): never {
  return { [COMMITTED_ERROR]: err } as never;
}

export function committedError(result: unknown): AppError | null {
  return result && typeof result === "object" && COMMITTED_ERROR in result ? (result as { [COMMITTED_ERROR]: AppError })[COMMITTED_ERROR] : null;
}
