import type { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Owner } from "@/lib/db/schema/owners";

/**
 * Owner operations (keys now; domains, transport … later) are REST-only: never MCP, never open to API keys.
 * Same shape as a tool so the REST adapter and OpenAPI treat both alike.
 */
export interface OwnerRoute<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: I;
  output: O;
  rest: { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; path: string };
  status?: number;
  handler: (ctx: { actor: Actor; owner: Owner; db: Executor }, input: z.output<I>) => Promise<z.input<O>>;
}

export const defineOwnerRoute = <I extends z.ZodObject, O extends z.ZodType>(r: OwnerRoute<I, O>) => r;
