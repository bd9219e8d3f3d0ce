import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { ownerProjects } from "@/lib/owners/find-owner";

/**
 * Deleting the owner's two projects at once, each call's entry chained in the other (the only other one): each saw
 * two projects, so neither was the last. Own file: the database is this file's, so the owner has exactly the seeded
 * project and the setup's first one.
 */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Race B");
});
afterAll(() => c.server.close());

it("deletes one of the owner's last two projects when both are deleted at once, and refuses the other as the last", async () => {
  const projects = (await c.call("GET", "/projects")).body.projects as { id: string; name: string }[];
  expect(projects).toHaveLength(2);
  const answers = await Promise.all(projects.map((p) => c.call("POST", `/projects/${p.id}/delete`, { confirm: p.name }, { "x-brynth-project": p.id })));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  const left = await ownerProjects(await getDb(), c.seeded.owner.id);
  expect(left).toHaveLength(1);
  const deleted = answers.find((a) => a.status === 200)?.body;
  expect(deleted.ledger_project_id).toBe(left[0].id);
});
