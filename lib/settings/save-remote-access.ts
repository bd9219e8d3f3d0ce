import { eq } from "drizzle-orm";
import { publish } from "@/lib/db/change-channel";
import { AppError } from "@/lib/errors";
import type { Executor } from "@/lib/db/client";
import { remoteAccess } from "@/lib/db/schema/remote-access";
import { afterCommit } from "@/lib/db/transaction";
import type { RemoteAccessInput } from "@/lib/settings/remote-access-input";
import { committedRemoteAccess, REMOTE_ACCESS_CHANNEL, type SavedRemoteAccess } from "@/lib/settings/remote-access";

/** The ledger op of a saved change, for the dashboard action and the owner route alike. */
export const SAVE_REMOTE_ACCESS_OP = "settings.remote_access";

/**
 * Saves Settings → Remote access (instance-wide: every project's OAuth issuer, CORS and capability links follow it).
 * At commit this instance holds the new value at once and every other instance is told to read it again.
 * Tokens are bound to `${public URL}/mcp` (RFC 8707), so a new public URL ends every OAuth grant's use until the
 * client authorizes again at the new address.
 */
export async function saveRemoteAccess(db: Executor, opts: { ownerId: string } & RemoteAccessInput): Promise<SavedRemoteAccess> {
  // The form saves every field: one filled from an older read (another tab, a script since) would put back the public
  // URL someone else set, ending every OAuth grant's use for a change nobody meant.
  if (opts.updated_at !== undefined) {
    const [now] = await db.select({ at: remoteAccess.updatedAt }).from(remoteAccess).where(eq(remoteAccess.id, true)).for("update");
    const saved = now?.at.toISOString() ?? null;
    // The same instant in another spelling (`+00:00` for `Z`) is the same read.
    if ((now?.at.getTime() ?? null) !== (opts.updated_at === null ? null : Date.parse(opts.updated_at))) {
      throw new AppError("CONFLICT", `Remote access was saved again${saved ? ` (${saved})` : ""} since it was read: nothing was saved.`, {
        fix: "Read it again (reload Settings, or GET /api/v1/owner/settings/remote-access) and save from there.",
      });
    }
  }
  const values = { publicUrl: opts.public_url, allowedOrigins: opts.allowed_origins, updatedBy: opts.ownerId, updatedAt: new Date() };
  const [row] = await db
    .insert(remoteAccess)
    .values({ id: true, ...values })
    .onConflictDoUpdate({ target: remoteAccess.id, set: values })
    .returning();
  const saved = { publicUrl: row.publicUrl, allowedOrigins: row.allowedOrigins, updatedAt: row.updatedAt };
  afterCommit(db, () => {
    committedRemoteAccess(saved);
    publish(REMOTE_ACCESS_CHANNEL, null);
  });
  return saved;
}
