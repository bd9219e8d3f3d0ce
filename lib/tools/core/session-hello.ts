import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { mcpSessions } from "@/lib/db/schema/keys";
import { defineTool } from "@/lib/tools/define-tool";
import { normalisePlatform, platforms } from "@/lib/keys/agent-identity";
import { sessionCache } from "@/lib/keys/auth-cache";

export const sessionHello = defineTool({
  name: "session_hello",
  family: "brynth",
  scope: "any",
  description:
    'Call once at the start of a session with your agent label and platform, e.g. `{agent: "claude-code@laptop", platform: "claude-code"}`. Records the session in the project ledger. Not needed if your client already sends X-Brynth-Agent headers, but harmless.',
  input: z
    .object({
      agent: z.string().trim().min(1).max(200).describe("Your agent label, e.g. `claude-code@laptop`."),
      platform: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .describe(`One of ${platforms.join(", ")}. Other values are stored as \`custom\`.`),
    })
    .strict(),
  output: z.object({
    ok: z.literal(true),
    agent: z.string(),
    platform: z.enum(platforms),
    session_id: z.string().nullable(),
  }),
  annotations: { title: "Introduce this agent", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rest: { method: "POST", path: "/sessions" },
  example: { agent: "contract-test", platform: "custom" },
  handler: async (ctx, input) => {
    const platform = normalisePlatform(input.platform);
    const sessionId = ctx.actor.sessionId ?? null;
    if (sessionId) {
      await ctx.db
        .update(mcpSessions)
        .set({ agent: input.agent, platform })
        .where(and(eq(mcpSessions.id, sessionId), eq(mcpSessions.projectId, ctx.actor.projectId)));
      await sessionCache.invalidate(ctx.db); // other instances hold this session's old labels
    }
    ctx.actor = { ...ctx.actor, agent: input.agent, platform };
    ctx.subject = sessionId ?? ctx.actor.keyId;
    return { ok: true as const, agent: input.agent, platform, session_id: sessionId };
  },
});
