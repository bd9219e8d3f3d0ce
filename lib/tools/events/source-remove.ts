import { z } from "zod";
import { removeSource } from "@/lib/sources/remove-source";
import { defineTool } from "@/lib/tools/define-tool";

export const sourceRemove = defineTool({
  name: "source_remove",
  family: "brynth",
  scope: "admin",
  description: "Removes a source by `name`: its URL stops accepting webhooks at once. Events already received stay in the inbox.",
  input: z.object({ name: z.string().min(1).max(64).describe("Name of the source.") }).strict(),
  output: z.object({ removed: z.literal(true), name: z.string(), removed_at: z.string() }),
  annotations: { title: "Remove an event source", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  rest: { method: "DELETE", path: "/sources/{name}" },
  handler: async (ctx, input) => {
    const row = await removeSource(ctx.db, { actor: ctx.actor, name: input.name });
    ctx.subject = row.id;
    return { removed: true as const, name: row.name, removed_at: row.removedAt!.toISOString() };
  },
});
