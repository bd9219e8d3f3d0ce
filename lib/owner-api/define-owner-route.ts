import type { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Db, Tx } from "@/lib/db/client";
import type { Owner } from "@/lib/db/schema/owners";
import { fieldError } from "@/lib/disk/field-error";
import { unstorableField } from "@/lib/tools/casing/unstorable-field";

/**
 * Owner operations (keys now; domains, transport … later) are REST-only: never MCP, never open to API keys.
 * Same shape as a tool so the REST adapter and OpenAPI treat both alike.
 */
export interface OwnerRoute<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType, P = undefined> {
  name: string;
  description: string;
  input: I;
  output: O;
  rest: {
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    /**
     * A download: the answer is this response, made once the transaction has committed, instead of the output as
     * JSON, as a tool's `rest.respond` is.
     */
    respond?: (output: z.input<O>, ctx: { actor: Actor; db: Db; input: z.output<I> }) => Response;
    /** The media types such a download answers with, as OpenAPI documents it (default application/octet-stream). */
    produces?: readonly string[];
  };
  status?: number;
  /** The ledger op of a route that changes something: the REST wrapper writes its entry (ledgered-transaction.ts). */
  op?: string;
  /** What of the input the entry digests, when not all of it (never a secret, not even as a digest). */
  ledgerInput?: (input: z.output<I>) => unknown;
  /** Likewise for the output, when it hands back a secret the input's digest left out. */
  ledgerOutput?: (output: z.input<O>) => unknown;
  /**
   * Deleting a project takes its ledger with it, so such a route's entry is chained in another of the owner's
   * projects (lib/owner-api/route-actor.ts), as the dashboard's delete does.
   */
  recordElsewhere?: true;
  /**
   * What the route waits for from the outside world (DNS, a relay, Telegram's API), done before its transaction
   * opens: a transaction held open while a lookup times out keeps a pooled connection from every other request. Its
   * answer reaches the handler as `ctx.prepared`; the handler reads again what it writes.
   */
  prepare?: (ctx: { actor: Actor; db: Db }, input: z.output<I>) => Promise<P>;
  /**
   * `subject` names the object the call touched, for its entry. `sessionId` is the dashboard session whose cookie
   * made the call; null over HTTP Basic.
   */
  handler: (
    ctx: { actor: Actor; owner: Owner; db: Tx; subject: string | null; sessionId: string | null; prepared: P },
    input: z.output<I>,
  ) => Promise<z.input<O>>;
}

export const defineOwnerRoute = <I extends z.ZodObject, O extends z.ZodType, P = undefined>(r: OwnerRoute<I, O, P>): OwnerRoute<I, O, P> => r;

/**
 * Every owner route refuses a NUL or a lone surrogate in its arguments, named by field, before they are parsed, as
 * tools do (parseToolArgs): its strings reach text columns (a project's name, an entry's subject) and queries (an id
 * in the path), which fail inside the database on a NUL as a 500, and store a lone surrogate as U+FFFD, not as sent.
 * Read before parsing: a record's `__proto__` key is gone from the parsed input (a prototype set), dropped unsaid.
 */
export function refuseUnstorableArgs(args: unknown): void {
  const bad = unstorableField(args);
  if (bad) throw fieldError(bad.path.join(".") || "(input)", `must not contain ${bad.problem}`);
}

/** A route's ledger op, for the dashboard action that does the same (a route without one fails at load). */
export function routeOp(route: Pick<OwnerRoute, "name" | "op">): string {
  if (!route.op) throw new Error(`Owner route ${route.name} writes no ledger entry.`);
  return route.op;
}
