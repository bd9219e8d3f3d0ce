import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { PAGE_PROJECT_HEADER } from "@/lib/auth/page-project-header";
import { getDb } from "@/lib/db/client";
import { kvEntries } from "@/lib/db/schema/disk";
import { seedProject } from "@/lib/testing/seed";

// The current project is a cookie every tab shares. A tab left on project A after project B was opened in another
// tab sent its actions to B: "Save key" wrote into B what the owner typed while looking at A. Each dashboard tab now
// names the project it shows (components/shell/page-project.tsx) and the action is refused when that is not the
// cookie's project; the browser's own actions (switch, create, sign out) still work from such a tab.

const signedIn: { ctx: OwnerContext | null; shown: string | null } = { ctx: null, shown: null };
vi.mock("@/lib/auth/current-owner", async (real) => ({
  ...(await real<typeof import("@/lib/auth/current-owner")>()),
  currentOwner: async () => signedIn.ctx,
}));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(signedIn.shown ? { [PAGE_PROJECT_HEADER]: signedIn.shown } : {}),
}));

const { saveKeyAction } = await import("@/app/(dashboard)/disk/actions");
const { switchProjectAction } = await import("@/app/(dashboard)/actions");

let a: Awaited<ReturnType<typeof seedProject>>;
let b: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  a = await seedProject({ name: "Tab A" });
  b = await seedProject({ name: "Tab B" });
  // The cookie names B now (opened in another tab); both are the owner's.
  signedIn.ctx = { owner: b.owner, sessionId: "ses_test", project: b.project, projects: [a.project, b.project], actor: b.actor };
});

const keysOf = async (projectId: string, key: string) =>
  (await getDb())
    .select()
    .from(kvEntries)
    .where(and(eq(kvEntries.projectId, projectId), eq(kvEntries.key, key)));

describe("an action from a tab that shows another project than the cookie's", () => {
  it("is refused, naming both projects, and changes nothing in either", async () => {
    signedIn.shown = a.project.id;
    const res = await saveKeyAction({ key: "typed-in-a", valueJson: "1" });
    expect(res).toEqual({ ok: false, error: expect.stringContaining("This tab shows project “Tab A”, but “Tab B” was opened in another tab") });
    expect(await keysOf(b.project.id, "typed-in-a")).toEqual([]);
    expect(await keysOf(a.project.id, "typed-in-a")).toEqual([]);
  });

  it("is refused when the tab's project was deleted, and goes through from a tab showing the cookie's project", async () => {
    signedIn.shown = "prj_deleted";
    expect(await saveKeyAction({ key: "from-deleted", valueJson: "1" })).toEqual({ ok: false, error: expect.stringContaining("no longer exists") });
    signedIn.shown = b.project.id;
    expect((await saveKeyAction({ key: "typed-in-b", valueJson: "1" })).ok).toBe(true);
    expect(await keysOf(b.project.id, "typed-in-b")).toHaveLength(1);
    // A caller that names no tab (not the dashboard's fetch) is not refused.
    signedIn.shown = null;
    expect((await saveKeyAction({ key: "no-tab", valueJson: "1" })).ok).toBe(true);
  });

  it("may still switch projects", async () => {
    signedIn.shown = a.project.id;
    expect(await switchProjectAction({ projectId: a.project.id })).toEqual({ ok: true, data: { id: a.project.id } });
  });
});
