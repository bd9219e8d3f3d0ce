import type { Executor } from "@/lib/db/client";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { revokeGrant } from "@/lib/oauth/revoke-grant";

/**
 * Ends a grant on the OAuth endpoints' side (a leaked code or refresh token, the client's own revocation) and puts
 * it in the project's ledger as the client's act under `op`: no call pipeline runs here to write the entry, yet the
 * grant ends as surely as when the owner revokes it. `input` adds to the client and grant ids. Nothing is recorded
 * when the grant had already ended; returns the revoked grant, or undefined.
 */
export async function revokeGrantForClient(
  tx: Executor,
  opts: { projectId: string; grantId: string; op: string; input?: Record<string, unknown>; output: Record<string, unknown> },
) {
  const revoked = await revokeGrant(tx, { projectId: opts.projectId, grantId: opts.grantId });
  if (!revoked) return undefined;
  await recordSystemAct(tx, {
    projectId: revoked.projectId,
    op: opts.op,
    subject: revoked.id,
    agent: `oauth:${revoked.clientId}`,
    input: { client_id: revoked.clientId, grant_id: revoked.id, ...opts.input },
    output: opts.output,
  });
  return revoked;
}
