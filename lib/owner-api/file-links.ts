import { z } from "zod";
import { listActiveLinks } from "@/lib/disk/list-links";
import { revokeLink } from "@/lib/disk/revoke-link";
import { ownerListInput, ownerPageAfter, ownerPageOf } from "@/lib/mail/quarantine/owner-page";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** Disk → Links over owner REST: the public links file_share made that still work, and stopping one (as the dashboard does). */

const LINKS = "owner_file_links_list";

export const listFileLinksRoute = defineOwnerRoute({
  name: LINKS,
  description: "Lists the project's public file links that still work (not revoked, not expired), newest first; pass `next_page_token` back as `page_token`.",
  input: ownerListInput({}),
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
    next_page_token: z.string().nullable(),
  }),
  rest: { method: "GET", path: "/owner/file-links" },
  handler: async (ctx, input) => {
    const rows = await listActiveLinks(ctx.db, { actor: ctx.actor, limit: input.limit + 1, after: ownerPageAfter(LINKS, ctx.actor, input) });
    const page = ownerPageOf(LINKS, ctx.actor, input, rows, (l) => ({ at: l.pageAt, id: l.id }));
    return {
      links: page.items.map((l) => ({
        id: l.id,
        path: l.path,
        size_bytes: l.sizeBytes,
        key_id: l.keyId,
        downloads: l.downloads,
        created_at: l.createdAt.toISOString(),
        expires_at: l.expiresAt.toISOString(),
      })),
      next_page_token: page.nextPageToken,
    };
  },
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
