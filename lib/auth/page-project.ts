import { headers } from "next/headers";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { PAGE_PROJECT_HEADER } from "@/lib/auth/page-project-header";

/**
 * Why this request's tab may not act on the current project, or null when it shows that project (or says nothing:
 * a caller other than the dashboard). The current project is a cookie, shared by every tab, so a tab left open on
 * project A would otherwise act on project B once B was opened in another tab — or on the first project, once A was
 * deleted.
 */
export async function staleTabProblem(ctx: Pick<OwnerContext, "project" | "projects">): Promise<string | null> {
  const shown = (await headers()).get(PAGE_PROJECT_HEADER);
  if (!shown || shown === ctx.project.id) return null;
  const was = ctx.projects.find((p) => p.id === shown);
  return was
    ? `This tab shows project “${was.name}”, but “${ctx.project.name}” was opened in another tab since. Nothing was changed: reload the page to continue in “${ctx.project.name}”, or switch back to “${was.name}”.`
    : `This tab's project no longer exists. Nothing was changed: reload the page to continue in “${ctx.project.name}”.`;
}
