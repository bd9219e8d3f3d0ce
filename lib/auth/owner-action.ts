import type { z } from "zod";
import { getDb, type Tx } from "@/lib/db/client";
import { AppError, toErrorBody } from "@/lib/errors";
import { currentOwner, type OwnerContext } from "@/lib/auth/current-owner";
import { validationError } from "@/lib/validation";
import { sealSoon } from "@/lib/ledger/seal-entries";

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; fieldErrors?: Record<string, string> };

/**
 * The authenticated action client: every dashboard mutation goes through it. Signed-in owner, zod-parsed input,
 * one transaction (the domain function appends its ledger entry inside it), errors as data for a toast.
 * Next checks the Origin of server actions against the host itself.
 */
export function ownerAction<S extends z.ZodType, T>(
  schema: S,
  fn: (ctx: OwnerContext & { db: Tx }, input: z.output<S>) => Promise<T>,
) {
  return async (input: z.input<S>): Promise<ActionResult<T>> => {
    const ctx = await currentOwner();
    if (!ctx) return { ok: false, error: "Your session has ended. Sign in again." };
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const err = validationError(parsed.error);
      const fieldErrors = Object.fromEntries(
        (err.details as { field: string; message: string }[]).map((d) => [d.field, d.message]),
      );
      return { ok: false, error: err.message, fieldErrors };
    }
    try {
      const db = await getDb();
      const data = await db.transaction((tx) => fn({ ...ctx, db: tx }, parsed.data));
      sealSoon(ctx.project.id);
      return { ok: true, data };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, error: err.message };
      return { ok: false, error: toErrorBody(err).body.message };
    }
  };
}
