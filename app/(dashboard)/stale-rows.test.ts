import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { sources } from "@/lib/db/schema/events";
import { findEntry } from "@/lib/disk/get-key";
import { kvSet } from "@/lib/tools/disk/kv-set";
import { sourceAdd } from "@/lib/tools/events/source-add";
import { sourceRemove } from "@/lib/tools/events/source-remove";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

// A screen's action acts on the row it showed, not on whatever an agent put in its place since:
// - Sources: Remove and Rotate named the source only by its name, so after an agent removed it and made a new one
//   under that name, a click on the stale row removed the new source, or replaced its secret (no grace for its sender);
// - Disk: Delete (unlike Save) named no version, and deleted an agent's newer value unseen.

const signedIn: { ctx: OwnerContext | null } = { ctx: null };
vi.mock("@/lib/auth/current-owner", async (real) => ({
  ...(await real<typeof import("@/lib/auth/current-owner")>()),
  currentOwner: async () => signedIn.ctx,
}));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));

const { removeSourceAction, rotateSecretAction } = await import("@/app/(dashboard)/sources/actions");
const { deleteKeyAction } = await import("@/app/(dashboard)/disk/actions");

let p: Awaited<ReturnType<typeof projectWithKey>>;
beforeAll(async () => {
  p = await projectWithKey("Stale source rows");
  signedIn.ctx = { owner: p.owner, sessionId: "ses_test", project: p.project, projects: [p.project], actor: p.actor };
});

const row = async (id: string) =>
  (
    await (
      await getDb()
    )
      .select()
      .from(sources)
      .where(and(eq(sources.projectId, p.project.id), eq(sources.id, id)))
  )[0];

/** The row the page showed, then the one an agent made under its name after removing it. */
async function remade(name: string) {
  const shown = await call(sourceAdd, p.mcp, { type: "webhook", name, verification: "hmac_sha256", secret: "first-secret-123" });
  await call(sourceRemove, p.mcp, { name });
  const again = await call(sourceAdd, p.mcp, { type: "webhook", name, verification: "hmac_sha256", secret: "second-secret-456" });
  return { shownId: shown.id as string, newId: again.id as string };
}

describe("Sources screen, a row an agent removed and made again under its name", () => {
  it("Remove and Rotate on the stale row are refused, and the new source keeps working with its secret", async () => {
    const { shownId, newId } = await remade("stripe");
    const before = await row(newId);
    expect(await removeSourceAction({ name: "stripe", sourceId: shownId })).toMatchObject({ ok: false, error: expect.stringContaining("not found") });
    expect(await rotateSecretAction({ name: "stripe", sourceId: shownId, secret: "owner-typed-secret-1", grace_hours: 0 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not found"),
    });
    expect(await row(newId)).toMatchObject({ removedAt: null, secretEnc: before.secretEnc });
  });

  it("act on the row shown when it is the live one", async () => {
    const made = await call(sourceAdd, p.mcp, { type: "webhook", name: "github", verification: "hmac_sha256", secret: "first-secret-123" });
    expect(await rotateSecretAction({ name: "github", sourceId: made.id as string, secret: "owner-typed-secret-2", grace_hours: 1 })).toMatchObject({
      ok: true,
    });
    expect(await removeSourceAction({ name: "github", sourceId: made.id as string })).toEqual({ ok: true, data: { name: "github" } });
    expect((await row(made.id as string)).removedAt).not.toBeNull();
  });
});

describe("Delete on the Disk screen", () => {
  it("refuses when an agent wrote the key after the screen showed it, and deletes the version shown", async () => {
    await call(kvSet, p.mcp, { key: "orders/1042", value: { status: "draft" } });
    const shown = (await findEntry(await getDb(), { actor: p.actor, key: "orders/1042" }))!;
    await call(kvSet, p.mcp, { key: "orders/1042", value: { status: "paid", amount: 120 } });
    expect(await deleteKeyAction({ key: "orders/1042", ifVersion: shown.version })).toEqual({
      ok: false,
      error: `Key orders/1042 is at version ${shown.version + 1}, not ${shown.version}: it was written since you opened it, and nothing was deleted.`,
    });
    expect((await findEntry(await getDb(), { actor: p.actor, key: "orders/1042" }))?.value).toBe(JSON.stringify({ status: "paid", amount: 120 }));
    expect(await deleteKeyAction({ key: "orders/1042", ifVersion: shown.version + 1 })).toEqual({ ok: true, data: { deleted: true } });
    expect(await findEntry(await getDb(), { actor: p.actor, key: "orders/1042" })).toBeNull();
    // Gone already (deleted elsewhere): nothing to refuse, nothing deleted.
    expect(await deleteKeyAction({ key: "orders/1042", ifVersion: shown.version + 1 })).toEqual({ ok: true, data: { deleted: false } });
  });
});
