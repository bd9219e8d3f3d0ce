import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { changedTables, projectFingerprint } from "@/lib/testing/fuzz/project-fingerprint";
import { watchProcessFaults } from "@/lib/testing/fuzz/process-faults";

/** The fuzz suites' two checks are only as good as what they notice: each must see what it is there to see. */

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject();
});
afterAll(() => server.close());

const kvSet = (key: string, body: unknown) =>
  fetch(`${server.url}/api/v1/kv/${key}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

it("fingerprints a project: names the tables a call wrote to, ignores a refused call, and is unmoved by the ledger's sealing", async () => {
  const other = await seedProject({ name: "Other" });
  const before = await projectFingerprint(seeded.project.id);
  expect((await kvSet("a", { value: 1 })).status).toBe(200);
  // The call's ledger entry is sealed after the answer; the fingerprint waits for that, so it counts once.
  const after = await projectFingerprint(seeded.project.id);
  expect(changedTables(before, after).sort()).toEqual(["disk_usage", "kv_entries", "ledger_entries"]);
  expect(await projectFingerprint(seeded.project.id)).toEqual(after);
  expect((await kvSet("a", { value: 1, bogus: true })).status).toBe(400);
  expect(await projectFingerprint(seeded.project.id)).toEqual(after);
  // Another project's rows are not this project's.
  const otherBefore = await projectFingerprint(other.project.id);
  expect((await kvSet("b", { value: 2 })).status).toBe(200);
  expect(await projectFingerprint(other.project.id)).toEqual(otherBefore);
});

// (Its unhandled-rejection half is Node's own event: raising one here would fail this run in Vitest's handler too.)
it("reports what the server logs as unexpected, once", () => {
  const faults = watchProcessFaults();
  try {
    console.error("[brynth] unexpected error", new Error("a handler crashed"));
    console.error("[brynth] something expected");
    expect(faults.take()).toEqual([expect.stringContaining("a handler crashed")]);
    expect(faults.take()).toEqual([]);
  } finally {
    faults.stop();
  }
});
