import { describe, expect, it } from "vitest";
import { approvalsHarness, ok, relaySink } from "@/lib/approvals/__tests__/helpers";

const { call } = approvalsHarness();
relaySink();

describe("channel_add", () => {
  it("adds an address once when many calls race for it: one channel, the others CONFLICT", async () => {
    // The owner channel exists first: creating it would otherwise queue the racing calls behind its unique index.
    ok(await call("channel_list"));
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("channel_add", { kind: "email", address: "race@example.com", label: "race" })));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(new Set(answers.filter((a) => !a.ok).map((a) => !a.ok && a.code))).toEqual(new Set(["CONFLICT"]));
    const listed = ok(await call("channel_list")).channels as { kind: string }[];
    expect(listed.filter((c) => c.kind === "email")).toHaveLength(1);
  });
});
