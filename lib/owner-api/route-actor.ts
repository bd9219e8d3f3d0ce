import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { Owner } from "@/lib/db/schema/owners";
import type { OwnerRoute } from "@/lib/owner-api/define-owner-route";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { ownerProjects } from "@/lib/owners/find-owner";

/**
 * The owner acting through a route: on the path's project (`/projects/{project_id}`), else the header's. A route
 * that records elsewhere (deleting the path's project, whose ledger goes with it) acts in the header's project when
 * it names another, else in the owner's first other one; with no other, in the path's, and the domain refuses.
 */
export async function routeActor(
  db: Executor,
  owner: Owner,
  route: Pick<OwnerRoute, "recordElsewhere">,
  pathProject: string | undefined,
  headerProject: string | null,
): Promise<Actor> {
  if (!route.recordElsewhere || !pathProject) return ownerActor(db, owner, pathProject ?? headerProject, "rest");
  if (headerProject && headerProject !== pathProject) return ownerActor(db, owner, headerProject, "rest");
  const other = (await ownerProjects(db, owner.id)).find((p) => p.id !== pathProject);
  return ownerActor(db, owner, other?.id ?? pathProject, "rest");
}
