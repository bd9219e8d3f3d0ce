import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PolicyDiff } from "@/components/policy/policy-diff";
import { diffPolicies } from "@/lib/policy/diff-policy";

describe("the policy diff shown to the owner", () => {
  it("isolates an agent's description and channel label, and writes out a right-to-left override", () => {
    const diff = diffPolicies(
      [{ id: "refunds", effect: "deny", description: "old" }],
      [{ id: "refunds", effect: "deny", description: "new \u202Eeslaf si siht", approvers: ["chn_a"] }],
    );
    const html = renderToStaticMarkup(createElement(PolicyDiff, { diff, channelLabel: () => "mario\u202E" }));
    expect(html).toContain("<bdi>old</bdi>");
    expect(html).toContain("<bdi>new [U+202E]eslaf si siht</bdi>");
    expect(html).toContain("<bdi>mario[U+202E]</bdi>");
    expect(html).not.toContain("\u202E");
  });
});
