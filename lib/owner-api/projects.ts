import { z } from "zod";
import { ownerProjects } from "@/lib/owners/find-owner";
import { createProject } from "@/lib/projects/create-project";
import { DELETE_PROJECT_OP, deleteProject } from "@/lib/projects/delete-project";
import { projectName, RENAME_PROJECT_OP, renameProject } from "@/lib/projects/rename-project";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

const projectShape = z.object({ id: z.string(), name: z.string(), created_at: z.string() });
const projectOut = (p: { id: string; name: string; createdAt: Date }) => ({ id: p.id, name: p.name, created_at: p.createdAt.toISOString() });

export const listProjectsRoute = defineOwnerRoute({
  name: "projects_list",
  description: "Lists the owner's projects. Pass a project's id as the X-Brynth-Project header to act on it.",
  input: z.object({}).strict(),
  output: z.object({ projects: z.array(projectShape) }),
  rest: { method: "GET", path: "/projects" },
  handler: async (ctx) => ({ projects: (await ownerProjects(ctx.db, ctx.owner.id)).map(projectOut) }),
});

/**
 * As the dashboard's "New project": no op of its own, since the new project's chain begins with its
 * `project.create` entry (lib/ledger/open-chain.ts).
 */
export const createProjectRoute = defineOwnerRoute({
  name: "projects_create",
  description: "Creates a project (its own keys, channels, sources, mailboxes and ledger). Act on it by passing its id as X-Brynth-Project.",
  input: z.object({ name: projectName }).strict(),
  output: projectShape,
  rest: { method: "POST", path: "/projects" },
  status: 201,
  handler: async (ctx, input) => {
    const project = await createProject(ctx.db, { ownerId: ctx.owner.id, ownerEmail: ctx.owner.email, name: input.name });
    ctx.subject = project.id;
    return projectOut(project);
  },
});

/** The path's project is the one acted on (rest.ts), so the entry lands in the renamed project's own chain. */
export const renameProjectRoute = defineOwnerRoute({
  name: "projects_rename",
  description: "Renames a project of the owner's.",
  input: z.object({ project_id: z.string().min(1).max(100), name: projectName }).strict(),
  output: projectShape,
  rest: { method: "PATCH", path: "/projects/{project_id}" },
  op: RENAME_PROJECT_OP,
  handler: async (ctx, input) => {
    ctx.subject = input.project_id;
    return projectOut(await renameProject(ctx.db, { actor: ctx.actor, name: input.name }));
  },
});

/**
 * As Settings → Danger zone, with the same typed confirmation (`confirm`: the project's name) and the same domain
 * function. The project's ledger goes with it, so the entry is chained in another project (`recordElsewhere`):
 * the one X-Brynth-Project names, else the owner's first other one; the answer says which.
 */
export const deleteProjectRoute = defineOwnerRoute({
  name: "projects_delete",
  description:
    "Deletes a project of the owner's with everything in it: keys (they stop at once), sources, channels, policy, events, approvals, disk, mailboxes and their mail, webhooks and its ledger; its files and mail bytes are then erased from the blob store. `confirm` must be the project's name exactly, as the dashboard asks. The owner's last project cannot be deleted. The call's ledger entry goes to another project's chain (X-Brynth-Project when it names another, else the owner's first other project): `ledger_project_id` says which.",
  input: z.object({ project_id: z.string().min(1).max(100), confirm: z.string().max(200) }).strict(),
  output: z.object({ id: z.string(), name: z.string(), deleted: z.literal(true), ledger_project_id: z.string() }),
  rest: { method: "POST", path: "/projects/{project_id}/delete" },
  op: DELETE_PROJECT_OP,
  recordElsewhere: true,
  handler: async (ctx, input) => {
    ctx.subject = input.project_id;
    const gone = await deleteProject(ctx.db, { ownerId: ctx.owner.id, projectId: input.project_id, confirmName: input.confirm, confirmField: "confirm" });
    return { id: gone.id, name: gone.name, deleted: true as const, ledger_project_id: ctx.actor.projectId };
  },
});
