import { z } from "zod";
import { listActiveLinks } from "@/lib/disk/list-links";
import { revokeLink } from "@/lib/disk/revoke-link";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** Disk → Links over owner REST: the public links file_share made that still work, and stopping one (as the dashboard does). */

export const listFileLinksRoute = defineOwnerRoute({
  name: "owner_file_links_list",
  description: "Lists the project's public file links that still work (not revoked, not expired), newest first, at most 100.",
  input: z.object({}).strict(),
  output: z.object({
    links: z.array(
      z.object({
        id: z.string(),
        path: z.string(),
        size_bytes: z.number().int(),
        key_id: z.string().nullable().describe("The API key whose file_share made it."),
        downloads: z.number().int(),
        created_at: z.string(),
        expires_at: z.string(),
      }),
    ),
  }),
  rest: { method: "GET", path: "/owner/file-links" },
  handler: async (ctx) => ({
    links: (await listActiveLinks(ctx.db, { actor: ctx.actor })).map((l) => ({
      id: l.id,
      path: l.path,
      size_bytes: l.sizeBytes,
      key_id: l.keyId,
      downloads: l.downloads,
      created_at: l.createdAt.toISOString(),
      expires_at: l.expiresAt.toISOString(),
    })),
  }),
});

export const revokeFileLinkRoute = defineOwnerRoute({
  name: "owner_file_links_revoke",
  description: "Stops a public link at once; NOT_FOUND when it is unknown, already revoked or another project's.",
  input: z.object({ link_id: z.string().min(1).max(100) }).strict(),
  output: z.object({ revoked: z.literal(true) }),
  rest: { method: "DELETE", path: "/owner/file-links/{link_id}" },
  op: "file.link_revoke",
  handler: async (ctx, input) => {
    ctx.subject = input.link_id;
    await revokeLink(ctx.db, { actor: ctx.actor, linkId: input.link_id });
    return { revoked: true as const };
  },
});
