import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Hostile policies" });
});
afterAll(() => server.close());

/** policy_set over REST, as an agent with a full key. */
async function propose(policy: unknown) {
  const res = await fetch(`${server.url}/api/v1/policy`, {
    method: "PUT",
    headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ policy, wait_seconds: 0 }),
  });
  const text = await res.text();
  return { status: res.status, size: text.length, body: JSON.parse(text) };
}

describe("policy_set, hostile rules", () => {
  it("names a rule with an over-long id by its first 64 characters, so the refusal stays small", async () => {
    const id = "r".repeat(100_000);
    // Every wrong field of a rule is a problem of its own, and each problem names the rule.
    const rules = Array.from({ length: 3 }, () => ({ id, effect: "maybe", action: 1, risk: 2, tool: 3, amount_lte: "x", bogus: true }));
    const res = await propose({ rules });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.message).toContain(`rule 1 "${"r".repeat(64)}…": id must be 1 to 64 letters`);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: "policy.rules.2.effect" }));
    expect(res.size).toBeLessThan(20_000);
  });

  it("refuses a rule id, a misplaced glob and a repeated id by field, and takes 100 rules but not 101", async () => {
    const bad = await propose({
      rules: [
        { id: "a", effect: "deny" },
        { id: "a", effect: "deny" },
        { id: "b", effect: "deny", action: "re*und" },
        { id: "😀", effect: "deny" },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(["policy.rules.1.id", "policy.rules.2.action", "policy.rules.3.id"]);
    const hundred = Array.from({ length: 100 }, (_, i) => ({ id: `rule-${i}`, action: `a${i}*`, effect: "deny" }));
    expect((await propose({ rules: hundred })).body).toMatchObject({ kind: "policy", status: "pending" });
    const over = await propose({ rules: [...hundred, { id: "one-more", effect: "deny" }] });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toContainEqual(expect.objectContaining({ field: "policy.rules" }));
  });
});
