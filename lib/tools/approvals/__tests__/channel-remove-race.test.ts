import { describe, expect, it } from "vitest";
import { approvalsHarness, ok, relaySink } from "@/lib/approvals/__tests__/helpers";

const { call } = approvalsHarness();
relaySink();

describe("channel_remove", () => {
  it("removes a channel once when many calls race for it: one answers removed, the others NOT_FOUND", async () => {
    const { channel_id } = ok(await call("channel_add", { kind: "email", address: "race@example.com", label: "race" }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("channel_remove", { channel_id })));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(new Set(answers.filter((a) => !a.ok).map((a) => !a.ok && a.code))).toEqual(new Set(["NOT_FOUND"]));
    const listed = ok(await call("channel_list")).channels as { id: string }[];
    expect(listed.map((c) => c.id)).not.toContain(channel_id);
  });
});
