import { and, eq, gt, isNull } from "drizzle-orm";
import { sha256Hex } from "@/lib/crypto/hash";
import type { Executor } from "@/lib/db/client";
import { setupTokens } from "@/lib/db/schema/owners";

/** Read-only check so the setup page can refuse a bad link before the form; consuming happens on submit. */
export async function isSetupTokenUsable(db: Executor, token: string): Promise<boolean> {
  if (!token) return false;
  const rows = await db
    .select({ tokenHash: setupTokens.tokenHash })
    .from(setupTokens)
    .where(and(eq(setupTokens.tokenHash, sha256Hex(token)), isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, new Date())));
  return rows.length === 1;
}
