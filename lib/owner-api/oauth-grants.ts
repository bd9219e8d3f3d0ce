import { z } from "zod";
import { notFound } from "@/lib/errors";
import { listGrants } from "@/lib/oauth/list-grants";
import { revokeGrant } from "@/lib/oauth/revoke-grant";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

const grantShape = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  redirect_hosts: z.array(z.string()),
  project_id: z.string(),
  project_name: z.string().nullable(),
  scopes: z.array(z.string()),
  mailbox_id: z.string().nullable(),
  mailbox_address: z.string().nullable().describe("The restricted mailbox's address; null when unrestricted or the mailbox was deleted."),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});

export const listGrantsRoute = defineOwnerRoute({
  name: "oauth_grants_list",
  description: "Lists the project's connected OAuth applications (live grants): client, scopes, mailbox restriction and last use.",
  input: z.object({}).strict(),
  output: z.object({ grants: z.array(grantShape) }),
  rest: { method: "GET", path: "/owner/oauth/grants" },
  handler: async (ctx) => ({ grants: await listGrants(ctx.db, { actor: ctx.actor }) }),
});

export const revokeGrantRoute = defineOwnerRoute({
  name: "oauth_grants_revoke",
  description: "Revokes a grant: its access and refresh tokens stop working on the next request on every instance, and its MCP sessions end.",
  input: z.object({ grant_id: z.string().min(1).max(100) }).strict(),
  output: z.object({ id: z.string(), revoked_at: z.string() }),
  rest: { method: "DELETE", path: "/owner/oauth/grants/{grant_id}" },
  op: "oauth.revoke",
  handler: async (ctx, input) => {
    ctx.subject = input.grant_id;
    const grant = await revokeGrant(ctx.db, { projectId: ctx.actor.projectId, grantId: input.grant_id });
    if (!grant?.revokedAt) throw notFound(`Grant ${input.grant_id}`);
    return { id: grant.id, revoked_at: grant.revokedAt.toISOString() };
  },
});
