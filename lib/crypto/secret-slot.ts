import { getTableName } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { SecretSlot } from "@/lib/crypto/secret-box";

/**
 * The slot of a sealed column's value in one row, named from the schema itself so a writer, its readers and the
 * upgrade can never spell it differently. `id` is the row's primary key (the project id for per-project settings).
 */
export function secretSlot(column: AnyPgColumn, id: string): SecretSlot {
  return { table: getTableName(column.table), id, column: column.name };
}
