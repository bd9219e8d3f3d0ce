"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { PROJECT_COOKIE } from "@/lib/auth/current-owner";
import { ownerAction } from "@/lib/auth/owner-action";
import { env } from "@/lib/env";
import { notFound } from "@/lib/errors";
import { END_SESSION_OP, endOwnerSession } from "@/lib/owners/end-owner-session";
import { createProject } from "@/lib/projects/create-project";

async function rememberProject(projectId: string) {
  (await cookies()).set(PROJECT_COOKIE, projectId, {
    httpOnly: true,
    sameSite: "lax",
    secure: env().publicUrl.startsWith("https:"),
    path: "/",
    maxAge: 365 * 24 * 3600,
  });
}

/** Not ledgered: switching changes only which project this browser shows. */
export const switchProjectAction = ownerAction(
  z.object({ projectId: z.string().min(1).max(100) }),
  async (ctx, input) => {
    if (!ctx.projects.some((p) => p.id === input.projectId)) throw notFound(`Project ${input.projectId}`);
    await rememberProject(input.projectId);
    return { id: input.projectId };
  },
  undefined,
  { anyTab: true },
);

/** The new project's chain begins with `project.create` (lib/ledger/open-chain.ts). */
export const createProjectAction = ownerAction(
  z.object({ name: z.string().trim().min(1, "Name the project.").max(100) }),
  async (ctx, input) => {
    const project = await createProject(ctx.db, { ownerId: ctx.owner.id, ownerEmail: ctx.owner.email, name: input.name });
    await rememberProject(project.id);
    return { id: project.id, name: project.name };
  },
  undefined,
  { anyTab: true },
);

const endCurrentSession = ownerAction(
  z.object({}),
  async (ctx) => {
    ctx.subject = ctx.sessionId;
    await endOwnerSession(ctx.db, { actor: ctx.actor, sessionId: ctx.sessionId });
  },
  { op: END_SESSION_OP },
  { anyTab: true },
);

/** Ends this browser's session row (so the JWT is dead even if copied), drops the cookies, back to sign-in. */
export async function signOutAction() {
  await endCurrentSession({});
  const jar = await cookies();
  for (const name of ["next-auth.session-token", "__Secure-next-auth.session-token"]) jar.delete(name);
  redirect("/login");
}
