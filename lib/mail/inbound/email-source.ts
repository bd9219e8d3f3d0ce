import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { sources } from "@/lib/db/schema/events";

/** The project's active email source (at most one per project), or null: without one, mail makes no events. */
export async function findEmailSource(db: Executor, projectId: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db
    .select({ id: sources.id, name: sources.name })
    .from(sources)
    .where(and(eq(sources.projectId, projectId), eq(sources.type, "email"), isNull(sources.removedAt)))
    .limit(1);
  return row ?? null;
}
