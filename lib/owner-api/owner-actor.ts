import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Owner } from "@/lib/db/schema/owners";
import { AppError } from "@/lib/errors";
import { ownerProjects } from "@/lib/owners/find-owner";

/** The owner acting on one of their projects: the one named (header or cookie), else their first. */
export async function ownerActor(db: Executor, owner: Owner, projectId: string | null | undefined, via: Actor["via"]): Promise<Actor> {
  const projects = await ownerProjects(db, owner.id);
  const project = projectId ? projects.find((p) => p.id === projectId) : projects[0];
  if (!project) {
    throw new AppError("NOT_FOUND", projectId ? `Project ${projectId} not found.` : "This owner has no project yet.", {
      fix: "List projects with GET /api/v1/projects and pass one as X-Brynth-Project.",
    });
  }
  return {
    type: "owner",
    projectId: project.id,
    projectName: project.name,
    id: owner.id,
    keyId: null,
    scopes: [],
    agent: owner.email,
    platform: null,
    via,
  };
}
