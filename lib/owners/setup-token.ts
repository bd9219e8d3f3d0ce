import { and, eq, gt, isNull } from "drizzle-orm";
import { randomBase62 } from "@/lib/ids";
import { sha256Hex } from "@/lib/crypto/hash";
import type { Executor } from "@/lib/db/client";
import { setupTokens } from "@/lib/db/schema/owners";

const TTL_MS = 24 * 3600_000;

/** A one-time token for the setup link printed at first start; only its hash is stored. */
export async function issueSetupToken(db: Executor): Promise<string> {
  const token = randomBase62(32);
  await db.insert(setupTokens).values({ tokenHash: sha256Hex(token), expiresAt: new Date(Date.now() + TTL_MS) });
  return token;
}

/** Marks the token used inside the setup transaction; false when unknown, expired or used already. */
export async function consumeSetupToken(tx: Executor, token: string): Promise<boolean> {
  const rows = await tx
    .update(setupTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(setupTokens.tokenHash, sha256Hex(token)), isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, new Date())))
    .returning({ tokenHash: setupTokens.tokenHash });
  return rows.length === 1;
}
