import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { oauthCodes } from "@/lib/db/schema/oauth";
import { fieldError } from "@/lib/disk/field-error";
import { randomBase62 } from "@/lib/ids";
import type { AuthorizeRequest } from "@/lib/oauth/authorize-request";
import { CODE_TTL_MS } from "@/lib/oauth/oauth-config";
import { hashSecret } from "@/lib/oauth/token-format";

/**
 * The owner approved: a one-time code bound to the client, its redirect URI, the PKCE challenge and the resource,
 * carrying what the owner chose (the actor's project, the scopes, at most one mailbox). The grant itself is made when
 * the code is exchanged, so an approval the client never completes leaves no grant behind.
 */
export async function approveConsent(
  tx: Executor,
  opts: { actor: Actor; ownerId: string; request: AuthorizeRequest; scopes: string[]; mailboxId: string | null },
): Promise<{ code: string }> {
  if (opts.scopes.length === 0) throw fieldError("scopes", "choose at least one scope", "Tick the scopes the application may use.");
  if (opts.mailboxId) {
    const [row] = await tx
      .select({ id: mailboxes.id })
      .from(mailboxes)
      .where(and(eq(mailboxes.id, opts.mailboxId), eq(mailboxes.projectId, opts.actor.projectId), isNull(mailboxes.deletedAt)))
      .limit(1);
    if (!row) throw fieldError("mailbox_id", "is not a mailbox of this project", "Pick one of the project's mailboxes, or all of them.");
  }
  const code = randomBase62(43);
  await tx.insert(oauthCodes).values({
    codeHash: hashSecret(code),
    clientId: opts.request.client.id,
    projectId: opts.actor.projectId,
    ownerId: opts.ownerId,
    scopes: opts.scopes,
    mailboxId: opts.mailboxId,
    redirectUri: opts.request.redirectUri,
    redirectUriGiven: opts.request.redirectUriGiven,
    codeChallenge: opts.request.codeChallenge,
    resource: opts.request.resource,
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
  return { code };
}
