import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { owners } from "@/lib/db/schema/owners";
import { projects } from "@/lib/db/schema/projects";
import { runOwnerAction } from "@/lib/auth/owner-action";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { CHANGE_PASSWORD_OP, changePassword, changePasswordInput } from "@/lib/owners/change-password";
import { liveSessionOwner, startOwnerSession } from "@/lib/owners/owner-sessions";
import { verifyPassword } from "@/lib/owners/password";
import { newId } from "@/lib/ids";
import { createProject } from "@/lib/projects/create-project";
import { DELETE_PROJECT_OP, deleteProject, projectFootprint } from "@/lib/projects/delete-project";
import { projectName, RENAME_PROJECT_OP, renameProject } from "@/lib/projects/rename-project";
import { OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

// Settings' actions as settings/actions.ts runs them: through the owner pipeline, with its plain per-field errors.
async function ownerCtx(sessionId: string): Promise<OwnerContext> {
  const s = await seedProject({ name: `Settings ${Math.random().toString(36).slice(2, 8)}` });
  return { owner: s.owner, sessionId, project: s.project, projects: [s.project], actor: s.actor };
}

const change = (ctx: OwnerContext, input: z.input<typeof changePasswordInput>) =>
  runOwnerAction(
    ctx,
    changePasswordInput,
    (c, i) => changePassword(c.db, { ownerId: c.owner.id, sessionId: c.sessionId, current: i.current, next: i.next }),
    { op: CHANGE_PASSWORD_OP, input: () => ({}) },
    input,
  );

const rename = (ctx: OwnerContext, name: string) =>
  runOwnerAction(ctx, z.object({ name: projectName }), (c, i) => renameProject(c.db, { actor: c.actor, name: i.name }), { op: RENAME_PROJECT_OP }, { name });

const entries = async (projectId: string, op: string) =>
  (await getDb())
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, projectId), eq(ledgerEntries.op, op)));

describe("Settings: password", () => {
  it("refuses a wrong current password, a short one and a mismatched confirmation on their fields, changing nothing", async () => {
    const db = await getDb();
    const here = await startOwnerSession(db, { ownerId: (await ownerCtx("x")).owner.id });
    const ctx = await ownerCtx(here.id);
    const before = (await db.select().from(owners).where(eq(owners.id, ctx.owner.id)))[0].passwordHash;

    expect(await change(ctx, { current: "wrong password", next: "a-new-password-1", confirm: "a-new-password-1" })).toEqual({
      ok: false,
      error: "The current password is wrong.",
      fieldErrors: { current: "The current password is wrong." },
    });
    expect(await change(ctx, { current: OWNER_PASSWORD, next: "short", confirm: "short" })).toMatchObject({
      ok: false,
      fieldErrors: { next: "Use at least 10 characters." },
    });
    expect(await change(ctx, { current: OWNER_PASSWORD, next: "a-new-password-1", confirm: "a-new-password-2" })).toMatchObject({
      ok: false,
      fieldErrors: { confirm: "The two new passwords differ." },
    });
    expect(await change(ctx, { current: "", next: "", confirm: "" })).toMatchObject({
      ok: false,
      fieldErrors: { current: "Enter your current password.", next: "Use at least 10 characters." },
    });
    expect((await db.select().from(owners).where(eq(owners.id, ctx.owner.id)))[0].passwordHash).toBe(before);
    expect(await entries(ctx.project.id, CHANGE_PASSWORD_OP)).toHaveLength(0);
  });

  it("sets the new password and ends every other session, keeping this one; the ledger holds no password", async () => {
    const db = await getDb();
    const probe = await ownerCtx("x");
    const here = await startOwnerSession(db, { ownerId: probe.owner.id, userAgent: "this browser" });
    const other = await startOwnerSession(db, { ownerId: probe.owner.id, userAgent: "another browser" });
    const ctx = await ownerCtx(here.id);

    const res = await change(ctx, { current: OWNER_PASSWORD, next: "a-new-password-1", confirm: "a-new-password-1" });
    expect(res).toMatchObject({ ok: true });
    expect(res.ok && res.data.endedSessions).toBeGreaterThanOrEqual(1);
    expect(await liveSessionOwner(db, here.id)).not.toBeNull();
    expect(await liveSessionOwner(db, other.id)).toBeNull();
    const [row] = await db.select().from(owners).where(eq(owners.id, ctx.owner.id));
    expect(await verifyPassword(row.passwordHash, "a-new-password-1")).toBe(true);
    expect(await verifyPassword(row.passwordHash, OWNER_PASSWORD)).toBe(false);
    const [entry] = await entries(ctx.project.id, CHANGE_PASSWORD_OP);
    expect(JSON.stringify(entry)).not.toContain("a-new-password-1");

    // Back, so the seed's password holds for the rest of the file.
    expect(await change(ctx, { current: "a-new-password-1", next: OWNER_PASSWORD, confirm: OWNER_PASSWORD })).toMatchObject({ ok: true });
  });
});

describe("Settings: project", () => {
  it("renames, and refuses an empty or too-long name in plain words on the name field", async () => {
    const ctx = await ownerCtx("ses_x");
    expect(await rename(ctx, "  ")).toEqual({ ok: false, error: "Name the project.", fieldErrors: { name: "Name the project." } });
    expect(await rename(ctx, "x".repeat(101))).toMatchObject({ ok: false, fieldErrors: { name: "Use at most 100 characters." } });
    expect(await rename(ctx, "Renamed")).toMatchObject({ ok: true, data: { name: "Renamed" } });
    expect(await entries(ctx.project.id, RENAME_PROJECT_OP)).toHaveLength(1);
  });

  it("deletes a project with everything in it only when its name is typed, ledgered in the project the owner keeps", async () => {
    const db = await getDb();
    const keep = await ownerCtx("ses_x");
    const doomed = await ownerCtx("ses_x");
    expect(await projectFootprint(db, doomed.project.id)).toEqual({ keys: 1, mailboxes: expect.any(Number), events: 0 });
    const acting = { ...keep, projects: [keep.project, doomed.project] };
    const del = (confirmName: string) =>
      runOwnerAction(
        acting,
        z.object({ projectId: z.string(), confirmName: z.string() }),
        async (c, i) => {
          c.subject = i.projectId;
          return deleteProject(c.db, { ownerId: c.owner.id, projectId: i.projectId, confirmName: i.confirmName });
        },
        { op: DELETE_PROJECT_OP },
        { projectId: doomed.project.id, confirmName },
      );

    const wrong = await del("not its name");
    expect(wrong).toMatchObject({ ok: false, fieldErrors: { confirmName: `Type “${doomed.project.name}” exactly to confirm.` } });
    expect(await db.select().from(projects).where(eq(projects.id, doomed.project.id))).toHaveLength(1);

    expect(await del(doomed.project.name)).toMatchObject({ ok: true, data: { id: doomed.project.id } });
    expect(await db.select().from(projects).where(eq(projects.id, doomed.project.id))).toHaveLength(0);
    expect(await db.select().from(apiKeys).where(eq(apiKeys.projectId, doomed.project.id))).toHaveLength(0);
    expect((await entries(keep.project.id, DELETE_PROJECT_OP)).map((e) => e.subject)).toEqual([doomed.project.id]);
  });

  it("keeps an owner's last project", async () => {
    const db = await getDb();
    // An owner of its own with one project: the shared test owner's projects belong to files running beside this one.
    const [lone] = await db
      .insert(owners)
      .values({ id: newId("own"), email: `lone-${Math.random().toString(36).slice(2, 10)}@example.com`, passwordHash: "unused" })
      .returning();
    const only = await db.transaction((tx) => createProject(tx, { ownerId: lone.id, ownerEmail: lone.email, name: "Only one" }));
    const err = await db.transaction((tx) => deleteProject(tx, { ownerId: lone.id, projectId: only.id, confirmName: only.name })).catch((e) => e);
    expect(err).toMatchObject({ code: "CONFLICT" });
    expect(await db.select().from(projects).where(eq(projects.id, only.id))).toHaveLength(1);
  });
});
