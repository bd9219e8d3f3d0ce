import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import type { Actor } from "@/lib/actor";
import type { Owner } from "@/lib/db/schema/owners";
import type { Project } from "@/lib/db/schema/projects";
import { ownerFromSessionToken, readCookie } from "@/lib/auth/authenticate-owner";
import { ownerProjects } from "@/lib/owners/find-owner";

export const PROJECT_COOKIE = "brynth_project";

export interface OwnerContext {
  owner: Owner;
  sessionId: string;
  project: Project;
  projects: Project[];
  actor: Actor;
}

/** The signed-in owner and current project for a dashboard page or action, or null when signed out. */
export async function currentOwner(): Promise<OwnerContext | null> {
  const cookieHeader = (await headers()).get("cookie");
  const found =
    (await ownerFromSessionToken(readCookie(cookieHeader, "__Secure-next-auth.session-token"))) ??
    (await ownerFromSessionToken(readCookie(cookieHeader, "next-auth.session-token")));
  if (!found) return null;
  const projects = await ownerProjects(await getDb(), found.owner.id);
  const wanted = (await cookies()).get(PROJECT_COOKIE)?.value;
  const project = projects.find((p) => p.id === wanted) ?? projects[0];
  if (!project) return null;
  return {
    owner: found.owner,
    sessionId: found.sessionId,
    project,
    projects,
    actor: {
      type: "owner",
      projectId: project.id,
      projectName: project.name,
      id: found.owner.id,
      keyId: null,
      scopes: [],
      agent: found.owner.email,
      platform: null,
      via: "dashboard",
    },
  };
}

/** For pages: the owner context, or a redirect to sign-in. */
export async function requireOwner(): Promise<OwnerContext> {
  const ctx = await currentOwner();
  if (!ctx) redirect("/login");
  return ctx;
}
