import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { findActiveSources } from "@/lib/sources/find-source";
import { sourceView } from "@/lib/sources/source-view";

export async function listSources(db: Executor, opts: { actor: Pick<Actor, "projectId"> }) {
  return (await findActiveSources(db, opts.actor.projectId)).map(sourceView);
}
