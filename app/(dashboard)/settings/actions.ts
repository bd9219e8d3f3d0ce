"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { ownerAction, runOwnerAction } from "@/lib/auth/owner-action";
import { currentOwner, PROJECT_COOKIE } from "@/lib/auth/current-owner";
import { CHANGE_PASSWORD_OP, changePassword, changePasswordInput } from "@/lib/owners/change-password";
import { DELETE_PROJECT_OP, deleteProject } from "@/lib/projects/delete-project";
import { projectName, RENAME_PROJECT_OP, renameProject } from "@/lib/projects/rename-project";
import { THEME_COOKIE, themeChoice } from "@/lib/owners/theme";
import { END_SESSION_OP, endOwnerSession } from "@/lib/owners/end-owner-session";
import { env } from "@/lib/env";
import { notFound } from "@/lib/errors";
import { revokeGrant } from "@/lib/oauth/revoke-grant";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { revokeGrantRoute } from "@/lib/owner-api/oauth-grants";

const revoke = ownerAction(
  z.object({ sessionId: z.string().min(1).max(100) }),
  async (ctx, input) => {
    ctx.subject = input.sessionId;
    await endOwnerSession(ctx.db, { actor: ctx.actor, sessionId: input.sessionId });
    return { self: input.sessionId === ctx.sessionId };
  },
  { op: END_SESSION_OP },
);

/** Revoking this browser's own session signs it out: its cookie goes too, and the page sends it to sign-in. */
export async function revokeSessionAction(input: { sessionId: string }) {
  const res = await revoke(input);
  if (res.ok && res.data.self) {
    const jar = await cookies();
    for (const name of ["next-auth.session-token", "__Secure-next-auth.session-token"]) jar.delete(name);
  }
  return res;
}

/** Settings → Connected apps: as DELETE /owner/oauth/grants/{id}, under its ledger op. */
export const revokeGrantAction = ownerAction(
  z.object({ grantId: z.string().min(1).max(100) }),
  async (ctx, input) => {
    ctx.subject = input.grantId;
    const grant = await revokeGrant(ctx.db, { projectId: ctx.actor.projectId, grantId: input.grantId });
    if (!grant) throw notFound(`Grant ${input.grantId}`);
    return { id: grant.id };
  },
  { op: routeOp(revokeGrantRoute) },
);

/** Settings → Project: renames the project the owner is looking at (as PATCH /owner/projects/{id}). */
export const renameProjectAction = ownerAction(
  z.object({ name: projectName }).strict(),
  async (ctx, input) => {
    ctx.subject = ctx.project.id;
    const row = await renameProject(ctx.db, { actor: ctx.actor, name: input.name });
    return { name: row.name };
  },
  { op: RENAME_PROJECT_OP },
);

const deleteInput = z.object({ projectId: z.string().min(1).max(100), confirmName: z.string().max(200) }).strict();

/**
 * Settings → Danger zone. The deleted project's ledger goes with it, so the entry is written to the chain of the
 * project the owner lands on next, with the deleted project's id as its subject; the browser switches to that one.
 */
export async function deleteProjectAction(input: z.input<typeof deleteInput>) {
  const ctx = await currentOwner();
  // A server action can be called with anything (null, a string): its schema judges it below, not a TypeError here.
  const projectId = (input as Partial<z.input<typeof deleteInput>> | null)?.projectId;
  const next = ctx?.projects.find((p) => p.id !== projectId);
  const acting = ctx && next ? { ...ctx, project: next, actor: { ...ctx.actor, projectId: next.id, projectName: next.name } } : ctx;
  const res = await runOwnerAction(
    acting,
    deleteInput,
    async (actx, i) => {
      actx.subject = i.projectId;
      return deleteProject(actx.db, { ownerId: actx.owner.id, projectId: i.projectId, confirmName: i.confirmName });
    },
    { op: DELETE_PROJECT_OP },
    input,
  );
  if (res.ok && next)
    (await cookies()).set(PROJECT_COOKIE, next.id, {
      httpOnly: true,
      sameSite: "lax",
      secure: env().publicUrl.startsWith("https:"),
      path: "/",
      maxAge: 365 * 24 * 3600,
    });
  return res;
}

/** Settings → Password: every other session of the owner ends in the same transaction. */
export const changePasswordAction = ownerAction(
  changePasswordInput,
  async (ctx, input) => {
    ctx.subject = ctx.owner.id;
    return changePassword(ctx.db, { ownerId: ctx.owner.id, sessionId: ctx.sessionId, current: input.current, next: input.next });
  },
  // Never a password in the ledger, not even as a digest.
  { op: CHANGE_PASSWORD_OP, input: () => ({}) },
);

/** Settings → Appearance: a cookie the root layout reads, so the first paint is already in the chosen theme. */
export async function setThemeAction(theme: string) {
  const parsed = themeChoice.safeParse(theme);
  if (!parsed.success) return { ok: false as const, error: "Choose system, light or dark." };
  (await cookies()).set(THEME_COOKIE, parsed.data, { path: "/", maxAge: 400 * 24 * 3600, sameSite: "lax" });
  return { ok: true as const, data: { theme: parsed.data } };
}
