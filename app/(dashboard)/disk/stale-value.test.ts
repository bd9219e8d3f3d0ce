import { beforeAll, describe, expect, it, vi } from "vitest";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { findEntry } from "@/lib/disk/get-key";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";
import { kvSet } from "@/lib/tools/disk/kv-set";

// The Disk screen's Delete names the version it showed, as its Save does: it deleted whatever value the key held by
// the time of the click, an agent's newer one included.

const signedIn: { ctx: OwnerContext | null } = { ctx: null };
vi.mock("@/lib/auth/current-owner", async (real) => ({
  ...(await real<typeof import("@/lib/auth/current-owner")>()),
  currentOwner: async () => signedIn.ctx,
}));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));

const { deleteKeyAction } = await import("@/app/(dashboard)/disk/actions");

let p: Awaited<ReturnType<typeof projectWithKey>>;
beforeAll(async () => {
  p = await projectWithKey("Stale disk value");
  signedIn.ctx = { owner: p.owner, sessionId: "ses_test", project: p.project, projects: [p.project], actor: p.actor };
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
