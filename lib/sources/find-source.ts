import { and, asc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { sources, type Source } from "@/lib/db/schema/events";
import { notFound } from "@/lib/errors";
import { HOOK_TOKEN_PATTERN, hookTokenHash } from "@/lib/sources/hook-token";

export function findActiveSources(db: Executor, projectId: string): Promise<Source[]> {
  return db
    .select()
    .from(sources)
    .where(and(eq(sources.projectId, projectId), isNull(sources.removedAt)))
    .orderBy(asc(sources.name));
}

export async function findSourceByName(db: Executor, projectId: string, name: string): Promise<Source> {
  const [row] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.projectId, projectId), eq(sources.name, name), isNull(sources.removedAt)));
  if (!row) throw notFound(`Source ${name}`, "List the project's sources with source_list.");
  return row;
}

/** The active webhook source behind a URL token, or null: unknown and removed look the same. */
export async function findSourceByToken(db: Executor, token: string): Promise<Source | null> {
  if (!HOOK_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.tokenHash, hookTokenHash(token)), isNull(sources.removedAt)));
  return row ?? null;
}
