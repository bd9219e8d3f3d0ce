import { type RemoteAccess, resolveRemoteAccess, type SavedRemoteAccess } from "@/lib/settings/remote-access";

/**
 * Settings → Remote access as owner REST answers it: what is saved, and what applies (the saved value, else the
 * environment's), so a script sees both without knowing the merge rule. Given what was just saved, it answers for
 * that, before this instance holds it (which happens at commit).
 */
export function remoteAccessView(from: RemoteAccess | SavedRemoteAccess) {
  const access = "saved" in from ? from : resolveRemoteAccess(from);
  return {
    public_url: access.saved.publicUrl,
    allowed_origins: access.saved.allowedOrigins,
    effective_public_url: access.publicUrl,
    env_public_url: access.envPublicUrl,
    effective_allowed_origins: [...access.extraOrigins].filter((o) => o !== access.publicOrigin),
    updated_at: access.saved.updatedAt?.toISOString() ?? null,
  };
}
