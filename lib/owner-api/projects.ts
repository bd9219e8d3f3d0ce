import { z } from "zod";
import { ownerProjects } from "@/lib/owners/find-owner";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

export const listProjectsRoute = defineOwnerRoute({
  name: "projects_list",
  description: "Lists the owner's projects. Pass a project's id as the X-Brynth-Project header to act on it.",
  input: z.object({}).strict(),
  output: z.object({ projects: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string() })) }),
  rest: { method: "GET", path: "/projects" },
  handler: async (ctx) => ({
    projects: (await ownerProjects(ctx.db, ctx.owner.id)).map((p) => ({
      id: p.id,
      name: p.name,
      created_at: p.createdAt.toISOString(),
    })),
  }),
});
