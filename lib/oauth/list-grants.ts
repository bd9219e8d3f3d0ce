import { and, desc, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { oauthClients, oauthGrants } from "@/lib/db/schema/oauth";

/**
 * The project's live OAuth grants with their client, for the owner (Settings → Connected apps, owner REST): who was
 * let in, with which scopes and mailbox, and when it last called. Never a token or a hash.
 */
export async function listGrants(db: Executor, opts: { actor: Pick<Actor, "projectId" | "projectName"> }) {
  const rows = await db
    .select({ grant: oauthGrants, clientName: oauthClients.clientName, redirectUris: oauthClients.redirectUris, mailbox: mailboxes.address })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .leftJoin(mailboxes, and(eq(mailboxes.id, oauthGrants.mailboxId), eq(mailboxes.projectId, oauthGrants.projectId)))
    .where(and(eq(oauthGrants.projectId, opts.actor.projectId), isNull(oauthGrants.revokedAt)))
    .orderBy(desc(oauthGrants.createdAt));
  return rows.map((r) => ({
    id: r.grant.id,
    client_id: r.grant.clientId,
    client_name: r.clientName,
    /** Where the client sends the owner back: the clearest hint of what the client is. */
    redirect_hosts: [...new Set(r.redirectUris.map((u) => new URL(u).host))],
    project_id: r.grant.projectId,
    project_name: opts.actor.projectName ?? null,
    scopes: r.grant.scopes,
    mailbox_id: r.grant.mailboxId,
    mailbox_address: r.mailbox,
    created_at: r.grant.createdAt.toISOString(),
    last_used_at: r.grant.lastUsedAt?.toISOString() ?? null,
  }));
}
export type GrantView = Awaited<ReturnType<typeof listGrants>>[number];
