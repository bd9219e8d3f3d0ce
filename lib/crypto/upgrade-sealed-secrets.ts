import { and, asc, eq, getTableColumns, getTableName, gt, like } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { encryptSecret, openUnboundSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import type { Db } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { sources } from "@/lib/db/schema/events";
import { mailDomains, mailRelays } from "@/lib/db/schema/mail";
import { dataUpgrades } from "@/lib/db/schema/upgrades";

/** Every column holding a sealed secret, with the primary key its slot names. */
export const SEALED_COLUMNS: { column: AnyPgColumn; id: AnyPgColumn }[] = [
  { column: sources.secretEnc, id: sources.id },
  { column: sources.previousSecretEnc, id: sources.id },
  { column: approvalSettings.callbackSecretEnc, id: approvalSettings.projectId },
  { column: approvalSettings.telegramTokenEnc, id: approvalSettings.projectId },
  { column: approvalSettings.telegramWebhookSecretEnc, id: approvalSettings.projectId },
  { column: mailDomains.dkimPrivateKeyEnc, id: mailDomains.id },
  { column: mailRelays.passwordEnc, id: mailRelays.projectId },
];

export const SECRETS_BOUND_UPGRADE = "secrets_bound_to_rows";
const BATCH = 200;

/**
 * Re-seals every v1 secret (no associated data) as v2 (bound to its table, row and column), once per database.
 *
 * Why once, at start-up, rather than lazily on read: re-sealing a v1 ciphertext binds it to whatever row it sits in,
 * so a re-sealer that keeps running would launder one pasted into another row. Done once and recorded in
 * data_upgrades, every v1 secret from then on is refused (secret-box.ts), with no window in which both are read.
 * Runs from migrateDb under its advisory lock, so two instances starting together do it once; each row is updated
 * only if it still holds the ciphertext that was read, and in batches, so a crash part-way resumes where it stopped.
 * Instances of the previous version must be stopped first: they cannot read v2, and a v1 secret written later is
 * refused.
 */
export async function upgradeSealedSecrets(db: Db): Promise<{ resealed: number; unreadable: number } | null> {
  const [done] = await db.select().from(dataUpgrades).where(eq(dataUpgrades.name, SECRETS_BOUND_UPGRADE));
  if (done) return null;
  let resealed = 0;
  let unreadable = 0;
  for (const { column, id } of SEALED_COLUMNS) {
    const table = column.table as PgTable;
    const key = Object.keys(getTableColumns(table)).find((k) => getTableColumns(table)[k] === column);
    if (!key) throw new Error(`${column.name} is not a column of ${getTableName(table)}`);
    let after = "";
    for (;;) {
      const rows = (await db
        .select({ id, sealed: column })
        .from(table)
        .where(and(like(column, "v1.%"), gt(id, after)))
        .orderBy(asc(id))
        .limit(BATCH)) as { id: string; sealed: string }[];
      await db.transaction(async (tx) => {
        for (const row of rows) {
          const plain = openUnboundSecret(row.sealed);
          // Left as it is (another APP_SECRET, or damaged): its callers refuse it with a clear error.
          if (plain === null) {
            unreadable++;
            continue;
          }
          const updated = await tx
            .update(table)
            .set({ [key]: encryptSecret(plain, secretSlot(column, row.id)) } as never)
            .where(and(eq(id, row.id), eq(column, row.sealed)))
            .returning({ id });
          // Nothing updated: changed since it was read (re-sealed by another upgrade, or a new secret was set).
          resealed += updated.length;
        }
      });
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1].id;
    }
  }
  await db.insert(dataUpgrades).values({ name: SECRETS_BOUND_UPGRADE }).onConflictDoNothing();
  if (resealed || unreadable) console.log(`[brynth] secrets bound to their rows: ${resealed} re-sealed, ${unreadable} unreadable (left as they were)`);
  return { resealed, unreadable };
}
