import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { deleteProject } from "@/lib/projects/delete-project";
import { seedProject } from "@/lib/testing/seed";
import { untilBlocked } from "@/lib/testing/until-blocked";

/**
 * Owner actions in a project whose deletion is committing at that moment (another tab, a script). The call found the
 * project (its actor is built before its transaction), the delete commits, then its inserts meet the gone project's
 * foreign keys. Before: 500 internal_error; now 404, and nothing written.
 */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Delete race writes");
});
afterAll(() => c.server.close());

async function raced(call: (projectId: string) => Promise<{ status: number; body: { error?: { code: string } } }>) {
  const doomed = await seedProject({ name: "Doomed" });
  const db = await getDb();
  let commit: () => void = () => {};
  const hold = new Promise<void>((r) => {
    commit = r;
  });
  let deleted: () => void = () => {};
  const didDelete = new Promise<void>((r) => {
    deleted = r;
  });
  const del = db.transaction(async (tx) => {
    const out = await deleteProject(tx, { ownerId: doomed.owner.id, projectId: doomed.project.id, confirmName: "Doomed" });
    deleted();
    await hold;
    return out;
  });
  await didDelete;
  const answer = call(doomed.project.id);
  // Until the call is blocked behind the uncommitted delete, then commit the delete.
  await untilBlocked(answer);
  commit();
  await del;
  return answer;
}

// Real concurrency: PostgreSQL only (PGlite runs one transaction at a time).
describe.skipIf(!process.env.DATABASE_URL?.startsWith("postgres"))("owner writes racing the project's deletion", () => {
  for (const [what, method, path, body] of [
    ["create key", "POST", "/keys", { name: "late", scopes: ["approvals"] }],
    ["add source", "POST", "/owner/sources", { type: "webhook", name: "late" }],
    ["add domain", "POST", "/owner/mail/domains", { domain: "late-race.example.org" }],
    ["save relay", "PUT", "/owner/mail/relay", { host: "smtp.example.org", port: 587, security: "starttls" }],
  ] as const) {
    it(`${what}: 404, not 500`, async () => {
      const res = await raced((pid) => c.call(method, path, body, { "x-brynth-project": pid }));
      expect(res.status).toBe(404);
      // Blocked behind the delete, the write meets the gone project: NOT_FOUND saying so (a call that came after the
      // commit finds no project at all: NOT_FOUND too).
      expect(res.body.error?.code).toBe("NOT_FOUND");
    });
  }
});
