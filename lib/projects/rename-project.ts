import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { projects } from "@/lib/db/schema/projects";
import { notFound } from "@/lib/errors";
import { keyCache } from "@/lib/keys/auth-cache";

/** A project's name as the owner gives it (New project, Settings, owner REST). */
export const projectName = z.string().trim().min(1, "Name the project.").max(100);

/** The op of renaming, for every pipeline that does it (Settings, owner REST). */
export const RENAME_PROJECT_OP = "project.rename";

/**
 * Renames the acting project. Keys carry their project's name in the auth cache (whoami shows it), so every
 * instance's cache is emptied on commit.
 */
export async function renameProject(tx: Executor, opts: { actor: Actor; name: string }) {
  const [row] = await tx
    .update(projects)
    .set({ name: opts.name, updatedAt: new Date() })
    .where(and(eq(projects.id, opts.actor.projectId), eq(projects.ownerId, opts.actor.id ?? "")))
    .returning();
  if (!row) throw notFound(`Project ${opts.actor.projectId}`);
  keyCache.invalidate(tx);
  return row;
}
