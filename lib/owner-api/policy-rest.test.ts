import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { getPolicyDraft } from "@/lib/policy/policy-draft";
import { getPolicy } from "@/lib/policy/get-policy";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { OWNER_EMAIL, OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;
const owner = () => ({ authorization: basic, "content-type": "application/json", "x-brynth-project": seeded.project.id });

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: owner(), body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
const refund = { action: "refund", amount: 30, risk: "low" };
const askRefund = async () => {
  const res = await fetch(`${server.url}/api/v1/approvals`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ ...refund, summary: "Refund order 1042?", wait_seconds: 0 }),
  });
  expect(res.status).toBe(200);
  return res.json();
};

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Policy drafts" });
});
afterAll(() => server.close());

describe("owner REST: policy drafts, simulate, apply, history, revert", () => {
  it("saves a draft that is not in force, simulates it beside the policy in force, and applies it", async () => {
    expect((await call("GET", "/owner/policy/draft")).body).toEqual({ draft: null, version_in_force: 0 });
    const noDraft = await call("POST", "/owner/policy/simulate", refund);
    expect(noDraft.status).toBe(200);
    expect(noDraft.body).toMatchObject({ in_force: { version: 0, effect: "require_approval", rule: null }, draft: null });

    const rules = [{ id: "small-refunds", action: "refund", amount_lte: 50, effect: "auto_approve" }];
    const put = await call("PUT", "/owner/policy/draft", { policy: { rules }, note: "Small refunds need nobody" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ rules, note: "Small refunds need nobody", base_version: 0, updated_by: `owner:${OWNER_EMAIL}` });
    expect((await lastLedgerEntry(seeded.project.id, "policy.draft_save"))?.subject).toBe("policy:draft");
    expect((await getPolicy(await getDb(), seeded.project.id)).version).toBe(0);
    expect((await askRefund()).status).toBe("pending");

    const sim = await call("POST", "/owner/policy/simulate", refund);
    expect(sim.body.in_force).toMatchObject({ version: 0, effect: "require_approval", rule: null, decided_by: null });
    expect(sim.body.draft).toMatchObject({ base_version: 0, effect: "auto_approve", rule: "small-refunds", decided_by: "policy:small-refunds" });
    const big = await call("POST", "/owner/policy/simulate", { ...refund, amount: 80 });
    expect(big.body.draft).toMatchObject({ effect: "require_approval", rule: null });

    const applied = await call("POST", "/owner/policy/apply", {});
    expect(applied).toEqual({ status: 200, body: { version: 1, rules: 1 } });
    const entry = await lastLedgerEntry(seeded.project.id, "policy.apply");
    expect(entry?.subject).toBe("policy:v1");
    expect(entry?.actorType).toBe("owner");
    expect((await call("GET", "/owner/policy/draft")).body).toEqual({ draft: null, version_in_force: 1 });
    const answer = await askRefund();
    expect(answer).toMatchObject({ status: "approved", decided_by: "policy:small-refunds" });

    const again = await call("POST", "/owner/policy/apply", {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "CONFLICT", message: "There is no draft to apply." });
    expect(again.body.error.fix).toMatch(/Save a draft first/);
  });

  it("lists each version with who, when and a readable diff, and reverts as a new version", async () => {
    const v2 = {
      rules: [
        { id: "internal-mail", tool: "email_send", domains: ["example.com"], effect: "allow" },
        { id: "small-refunds", action: "refund", amount_lte: 100, effect: "auto_approve_notify" },
        { id: "deny-rest", effect: "deny" },
      ],
    };
    await call("PUT", "/owner/policy/draft", { policy: v2 });
    expect((await call("POST", "/owner/policy/apply", { note: "Mail and bigger refunds" })).body.version).toBe(2);
    await call("PUT", "/owner/policy/draft", { policy: { rules: [v2.rules[2], v2.rules[0]] } });
    expect((await call("POST", "/owner/policy/apply", {})).body.version).toBe(3);

    const history = await call("GET", "/owner/policy/history?limit=2");
    expect(history.status).toBe(200);
    expect(history.body.versions.map((v: { version: number }) => v.version)).toEqual([3, 2]);
    expect(history.body.next_before).toBe(2);
    const [h3, h2] = history.body.versions;
    expect(h3).toMatchObject({ approved_by: `owner:${OWNER_EMAIL}`, approved_via: "rest", note: null });
    expect(h3.diff).toEqual({
      added: [],
      removed: [{ position: 2, rule: v2.rules[1] }],
      changed: [],
      moved: [{ id: "deny-rest", from: 3, to: 1 }],
    });
    expect(h2.note).toBe("Mail and bigger refunds");
    expect(h2.diff.added.map((a: { rule: { id: string } }) => a.rule.id)).toEqual(["internal-mail", "deny-rest"]);
    expect(h2.diff.changed).toEqual([
      {
        id: "small-refunds",
        position: 2,
        changes: [
          { field: "effect", before: "auto_approve", after: "auto_approve_notify" },
          { field: "amount_lte", before: 50, after: 100 },
        ],
      },
    ]);
    const older = await call("GET", `/owner/policy/history?before=${history.body.next_before}`);
    expect(older.body.versions.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(older.body.versions[0].diff.added).toHaveLength(1);
    expect(older.body.next_before).toBeNull();

    // A revert chosen while version 2 was in force, sent once version 3 is: nothing changes.
    const stale = await call("POST", "/owner/policy/versions/1/revert", { version_in_force: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe("Version 3 is in force now, not version 2: nothing was reverted.");
    const reverted = await call("POST", "/owner/policy/versions/1/revert", { version_in_force: 3 });
    expect(reverted).toEqual({ status: 200, body: { version: 4, reverted_to: 1 } });
    expect((await lastLedgerEntry(seeded.project.id, "policy.revert"))?.subject).toBe("policy:v4");
    const now = await call("GET", "/owner/policy/history?limit=1");
    expect(now.body.versions[0]).toMatchObject({ version: 4, note: "Revert to version 1", rules: [{ id: "small-refunds", amount_lte: 50 }] });
    expect((await askRefund()).decided_by).toBe("policy:small-refunds");

    const missing = await call("POST", "/owner/policy/versions/99/revert", {});
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Policy version 99 not found.");
    const inForce = await call("POST", "/owner/policy/versions/4/revert", {});
    expect(inForce.status).toBe(409);
    expect(inForce.body.error.message).toBe("Version 4 is already in force.");
    const bad = await call("POST", "/owner/policy/versions/abc/revert", {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_error");
    expect(bad.body.error.message).toMatch(/version/);
  });

  it("refuses a draft that does not parse, naming the rule and field, and keeps the saved draft", async () => {
    const good = { rules: [{ id: "keep-me", effect: "deny", action: "drop_table" }] };
    await call("PUT", "/owner/policy/draft", { policy: good });
    const cases: [unknown, RegExp, string][] = [
      [
        {
          rules: [
            { id: "ok", effect: "allow" },
            { id: "big-refunds", effect: "maybe" },
          ],
        },
        /rule 2 "big-refunds": effect/,
        "policy.rules.1.effect",
      ],
      [{ rules: [{ id: "typo", effect: "deny", amount_lt: 5 }] }, /rule 1 "typo": unknown condition amount_lt/, "policy.rules.0"],
      [
        { rules: [{ id: "who", effect: "deny", approvers: ["chn_nobody"] }] },
        /rule 1 "who": approvers: chn_nobody is not a channel of this project/,
        "policy.rules.0.approvers",
      ],
      [
        {
          rules: [
            { id: "a", effect: "deny" },
            { id: "a", effect: "allow" },
          ],
        },
        /rule 2 "a": the id is used by an earlier rule/,
        "policy.rules.1.id",
      ],
      [[{ id: "a", effect: "allow" }], /^policy: /, "policy"],
      [undefined, /^policy: /, "policy"],
    ];
    for (const [policy, message, field] of cases) {
      const res = await call("PUT", "/owner/policy/draft", { policy });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const twice = await call("PUT", "/owner/policy/draft", {
      policy: { rules: [{ id: "who", effect: "deny", approvers: ["chn_nobody", "chn_nobody"] }] },
    });
    expect(twice.body.error.message).toBe('rule 1 "who": approvers: chn_nobody is not a channel of this project');
    expect(twice.body.error.details).toHaveLength(1);
    const tooLong = await call("PUT", "/owner/policy/draft", { policy: good, note: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toMatch(/note/);
    const unknown = await call("PUT", "/owner/policy/draft", { policy: good, version: 3 });
    expect(unknown.status).toBe(400);
    const draft = await getPolicyDraft(await getDb(), seeded.project.id);
    expect(draft?.rules).toEqual(good.rules);

    const sim = await call("POST", "/owner/policy/simulate", { recipients: ["not an address"], tool: "email_send" });
    expect(sim.status).toBe(400);
    expect(sim.body.error.message).toMatch(/recipients/);
    // Only what the real call can carry (before: answered from facts no real call has, e.g. deny on an amount that
    // a send_message never carries, while the real send went out).
    for (const [body, field] of [
      [{ tool: "send_message", amount: 5 }, "amount"],
      [{ tool: "email_send", risk: "high" }, "risk"],
      [{ tool: "email_send", action: "refund" }, "action"],
      [{ tool: "file_url", recipients: ["a@rival.com"] }, "recipients"],
      [{ action: "refund", recipients: ["a@rival.com"] }, "recipients"],
    ] as const) {
      const refused = await call("POST", "/owner/policy/simulate", body);
      expect([refused.status, refused.body.error.details.map((d: { field: string }) => d.field)], JSON.stringify(body)).toEqual([400, [field]]);
    }
    expect((await call("POST", "/owner/policy/simulate", { tool: "send_message", recipients: ["a@rival.com"] })).status).toBe(200);

    expect((await call("DELETE", "/owner/policy/draft")).body).toEqual({ deleted: true });
    expect((await lastLedgerEntry(seeded.project.id, "policy.draft_discard"))?.subject).toBe("policy:draft");
    expect((await call("DELETE", "/owner/policy/draft")).body).toEqual({ deleted: false });
  });

  it("refuses a version past the column's integer range by field, instead of failing in the database as a 500", async () => {
    for (const version of [2_147_483_648, 9_007_199_254_740_991]) {
      const history = await call("GET", `/owner/policy/history?before=${version}`);
      expect(history.status).toBe(400);
      expect(history.body.error.details.map((d: { field: string }) => d.field)).toEqual(["before"]);
      const revert = await call("POST", `/owner/policy/versions/${version}/revert`, {});
      expect(revert.status).toBe(400);
      expect(revert.body.error.details.map((d: { field: string }) => d.field)).toEqual(["version"]);
    }
    // The largest version the column holds is still a question with an answer: none older, none of that number.
    expect((await call("GET", "/owner/policy/history?before=2147483647")).status).toBe(200);
    expect((await call("POST", "/owner/policy/versions/2147483647/revert", {})).status).toBe(404);
  });

  it("applies a draft only while the version in force is the one it names, and reads a path's version as digits only", async () => {
    const inForce = (await call("GET", "/owner/policy/draft")).body.version_in_force as number;
    await call("PUT", "/owner/policy/draft", { policy: { rules: [{ id: "reviewed", effect: "deny", action: "drop_table" }] } });
    // Another version was applied after the caller reviewed the draft against the one before it.
    const stale = await call("POST", "/owner/policy/apply", { version_in_force: inForce - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe(`Version ${inForce} is in force now, not version ${inForce - 1}: the draft was not applied.`);
    expect((await getPolicy(await getDb(), seeded.project.id)).version).toBe(inForce);
    expect((await getPolicyDraft(await getDb(), seeded.project.id))?.rules).toEqual([{ id: "reviewed", effect: "deny", action: "drop_table" }]);
    const bad = await call("POST", "/owner/policy/apply", { version_in_force: "latest" });
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(["version_in_force"]);
    // Another tab saved over the reviewed draft: applying it would put in force rules this caller never saw.
    const reviewed = (await call("GET", "/owner/policy/draft")).body.draft.updated_at as string;
    await new Promise((r) => setTimeout(r, 5));
    await call("PUT", "/owner/policy/draft", { policy: { rules: [{ id: "everything", effect: "auto_approve" }] } });
    const replaced = await call("POST", "/owner/policy/apply", { version_in_force: inForce, draft_updated_at: reviewed });
    expect(replaced.status).toBe(409);
    expect(replaced.body.error.message).toMatch(/^The draft was saved again \(.+, by owner:owner@example.com\) since you reviewed it: nothing was applied\.$/);
    expect((await getPolicy(await getDb(), seeded.project.id)).version).toBe(inForce);
    const current = (await call("GET", "/owner/policy/draft")).body.draft.updated_at as string;
    expect(await call("POST", "/owner/policy/apply", { version_in_force: inForce, draft_updated_at: current })).toEqual({
      status: 200,
      body: { version: inForce + 1, rules: 1 },
    });

    for (const version of ["0x1", "1e0", "%201", "+1", "0b1"]) {
      const revert = await call("POST", `/owner/policy/versions/${version}/revert`, {});
      expect(revert.status, version).toBe(400);
      expect(revert.body.error.details.map((d: { field: string }) => d.field)).toEqual(["version"]);
    }
    expect((await getPolicy(await getDb(), seeded.project.id)).version).toBe(inForce + 1);
  });

  it("refuses API keys and lists the routes under the owner tag in OpenAPI", async () => {
    const withKey = await fetch(`${server.url}/api/v1/owner/policy/draft`, { headers: { authorization: `Bearer ${seeded.secret}` } });
    expect(withKey.status).toBe(401);
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const ops = {
      "/api/v1/owner/policy/draft": ["get", "put", "delete"],
      "/api/v1/owner/policy/simulate": ["post"],
      "/api/v1/owner/policy/apply": ["post"],
      "/api/v1/owner/policy/history": ["get"],
      "/api/v1/owner/policy/versions/{version}/revert": ["post"],
    };
    for (const [path, methods] of Object.entries(ops)) {
      for (const m of methods) expect(doc.paths[path]?.[m]?.tags, `${m} ${path}`).toEqual(["owner"]);
    }
    expect(doc.paths["/api/v1/owner/policy/apply"].post.operationId).toBe("owner_policy_apply");
  });
});
