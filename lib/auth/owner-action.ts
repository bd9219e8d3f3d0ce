import type { z } from "zod";
import { type Db, getDb, type Tx } from "@/lib/db/client";
import { AppError, toErrorBody } from "@/lib/errors";
import { currentOwner, type OwnerContext } from "@/lib/auth/current-owner";
import { staleTabProblem } from "@/lib/auth/page-project";
import { appErrorFieldErrors, plainFieldErrors } from "@/lib/forms/plain-issue";
import { ledgeredTransaction } from "@/lib/ledger/ledgered-transaction";
import { unstorableField } from "@/lib/tools/casing/unstorable-field";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string> };

export interface ActionContext<P = undefined> extends OwnerContext {
  db: Tx;
  /** The id of the object the action touched, for its ledger entry's `subject`. */
  subject: string | null;
  /** What `prepare` brought back, before the transaction opened. */
  prepared: P;
}

/**
 * What an action waits for from the outside world (DNS, a relay, Telegram's API), done before its transaction opens,
 * as an owner route's `prepare` is: no pooled connection is held while a lookup times out.
 */
export type ActionPrepare<I, P> = (ctx: OwnerContext & { db: Db }, input: I) => Promise<P>;

export interface ActionLedger<I> {
  /** The ledger op; a change that mirrors a tool or an owner route takes theirs (`toolOpOf`, `route.op`). */
  op: string;
  /** What of the input the entry digests, when not all of it (never a secret, not even as a digest). */
  input?: (input: I) => unknown;
}

/**
 * The authenticated action client: every dashboard mutation goes through it. Signed-in owner, zod-parsed input,
 * one transaction, errors as data for a toast. An action that changes something declares its ledger `op`, and its
 * entry (input, output, the subject the action names) is written here, in that transaction — never by the domain
 * functions it calls. Next checks the Origin of server actions against the host itself.
 */
export function ownerAction<S extends z.ZodType, T, P = undefined>(
  schema: S,
  fn: (ctx: ActionContext<P>, input: z.output<S>) => Promise<T>,
  ledger?: ActionLedger<z.output<S>>,
  /** `anyTab`: the browser's own actions (switch or create a project, sign out), which a stale tab may take. */
  opts: { anyTab?: boolean; prepare?: ActionPrepare<z.output<S>, P> } = {},
) {
  return async (input: z.input<S>): Promise<ActionResult<T>> => {
    const ctx = await currentOwner();
    const stale = ctx && !opts.anyTab ? await staleTabProblem(ctx) : null;
    if (stale) return { ok: false, error: stale };
    return runOwnerAction(ctx, schema, fn, ledger, input, opts.prepare);
  };
}

/** An action's work for a given owner context (`ownerAction` reads it from the request's cookies). */
export async function runOwnerAction<S extends z.ZodType, T, P = undefined>(
  ctx: OwnerContext | null,
  schema: S,
  fn: (ctx: ActionContext<P>, input: z.output<S>) => Promise<T>,
  ledger: ActionLedger<z.output<S>> | undefined,
  input: z.input<S>,
  prepare?: ActionPrepare<z.output<S>, P>,
): Promise<ActionResult<T>> {
  if (!ctx) return { ok: false, error: "Your session has ended. Sign in again." };
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    // Plain words per field (lib/forms/plain-issue.ts); `error` is the first of them, for a form that shows one line.
    const { "": whole, ...fieldErrors } = plainFieldErrors(parsed.error);
    return { ok: false, error: whole ?? Object.values(fieldErrors)[0] ?? "Check the form.", fieldErrors };
  }
  // Text PostgreSQL cannot store (a NUL, a lone surrogate) is the form's error, as it is a tool's (parseToolArgs):
  // a NUL reached the query and showed "Something went wrong", a lone surrogate was saved as U+FFFD. Read in the
  // input as sent: a record's `__proto__` key is gone from the parsed one (a prototype set), dropped unsaid.
  const bad = unstorableField(input);
  if (bad) {
    const field = bad.path.join(".");
    const message = `Must not contain ${bad.problem}.`;
    return { ok: false, error: message, fieldErrors: field ? { [field]: message } : {} };
  }
  try {
    const call = { actor: ctx.actor, op: ledger?.op, input: ledger?.input ? ledger.input(parsed.data) : parsed.data };
    const db = await getDb();
    const prepared = (await prepare?.({ ...ctx, db }, parsed.data)) as P;
    const data = await ledgeredTransaction(db, call, (tx, entry) => {
      const actionCtx: ActionContext<P> = Object.assign(entry, ctx, { db: tx, prepared });
      return fn(actionCtx, parsed.data);
    });
    return { ok: true, data };
  } catch (err) {
    if (err instanceof AppError) {
      // A server-side refusal that names its field (a duplicate name) lands on that field, like a validation error.
      const fieldErrors = appErrorFieldErrors(err);
      const first = err.code === "validation_error" ? Object.values(fieldErrors)[0] : undefined;
      return Object.keys(fieldErrors).length > 0 ? { ok: false, error: first ?? err.message, fieldErrors } : { ok: false, error: err.message };
    }
    return { ok: false, error: toErrorBody(err).body.message };
  }
}
