import { getBlobStore } from "@/lib/blob/get-blob-store";
import type { Executor } from "@/lib/db/client";
import { afterRollback } from "@/lib/db/transaction";

/**
 * Bytes are written to the store before the row that names them, so a stored row never points at missing bytes;
 * the other way round, bytes whose row never came stayed in the store with nothing naming them, until the project
 * was deleted (found by helper-108, helper-109, helper-112). These are the two ways such bytes go.
 */

/** Bytes written for a row this transaction inserts: deleted if it certainly rolls back (lib/db/transaction.ts). */
export function discardOnRollback(db: Executor, blobKey: string): void {
  afterRollback(db, () => discardBlob(blobKey));
}

/** Bytes this call wrote that no row took (a duplicate, a race lost): deleted now. A failure is only logged. */
export async function discardBlob(blobKey: string): Promise<void> {
  await (await getBlobStore()).delete(blobKey).catch((err) => console.error("[brynth] could not delete unused blob", blobKey, err));
}
