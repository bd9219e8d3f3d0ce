import { z } from "zod";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";
import { publicUrl } from "@/lib/settings/remote-access";

export const whoami = defineTool({
  name: "whoami",
  family: "brynth",
  scope: "any",
  description:
    "Returns the project, key scopes, the agent identity Brynth sees for your calls and the public API and MCP URLs (`endpoints`). Use it to check what you are allowed to do before trying.",
  input: z.object({}).strict(),
  output: z.object({
    project: z.object({ id: z.string(), name: z.string() }),
    key: z.object({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      scopes: z.array(z.string()),
      mailbox_id: z.string().nullable(),
    }),
    agent: z.string().nullable(),
    platform: z.string().nullable(),
    session_id: z.string().nullable(),
    endpoints: z.object({ mcp: z.string(), api: z.string(), openapi: z.string() }),
  }),
  annotations: { ...readOnly, title: "Show this key and session" },
  example: {},
  rest: { method: "GET", path: "/whoami" },
  // The actor already holds everything (loaded with the key), so the call costs only its ledger entry.
  handler: async ({ actor }) => {
    const base = publicUrl();
    return {
      project: { id: actor.projectId, name: actor.projectName ?? "" },
      key: {
        id: actor.keyId ?? "",
        name: actor.keyName ?? "",
        prefix: actor.keyPrefix ?? "",
        scopes: [...actor.scopes],
        mailbox_id: actor.mailboxId ?? null,
      },
      agent: actor.agent,
      platform: actor.platform,
      session_id: actor.sessionId ?? null,
      endpoints: { mcp: `${base}/mcp`, api: `${base}/api/v1`, openapi: `${base}/api/v1/openapi.json` },
    };
  },
});
