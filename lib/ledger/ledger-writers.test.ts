import { readFileSync } from "node:fs";
import { walkFiles } from "@/lib/testing/walk-files";
import { describe, expect, it } from "vitest";

/**
 * The ledger's one rule (README.md here): the call pipelines write entries, from the op they declare; domain
 * functions never do, except the system's own acts through recordSystemAct. This pins who may append.
 */
const PIPELINES = new Set([
  "lib/tools/run-tool.ts", // every tool call, over MCP and REST
  "lib/tools/adapters/mcp.ts", // mcp.initialize: the session's start
  "lib/ledger/ledgered-transaction.ts", // the owner action client and the owner REST wrapper
  "lib/approvals/http/post-email-decision.ts", // a decision from an emailed link
  "lib/channels/http/post-verify.ts", // a channel verified from its emailed link
  "lib/telegram/handle-callback.ts", // a decision from a Telegram button
  "lib/telegram/handle-start.ts", // a Telegram chat verified by /start
  "lib/ledger/record-system-act.ts", // the system's own acts
  "lib/ledger/open-chain.ts", // a chain's first entry
]);

/** Application source (tests and test helpers excluded): what could write an entry at run time. */
const sources = (dir: string) =>
  [...walkFiles(dir, /\.tsx?$/)].filter((path) => !/\.test\.ts$/.test(path) && !path.includes("__tests__") && !path.startsWith("lib/testing"));

describe("who writes ledger entries", () => {
  const files = [...sources("lib"), ...sources("app"), ...sources("components")];

  it("only the call pipelines append", () => {
    const appending = files.filter(
      (f) =>
        f !== "lib/ledger/append-entry.ts" &&
        /from "@\/lib\/ledger\/append-entry"/.test(readFileSync(f, "utf8")) &&
        /\bappendEntry\(/.test(readFileSync(f, "utf8")),
    );
    expect(appending.filter((f) => !PIPELINES.has(f))).toEqual([]);
  });

  it("has no ledger switches, and nobody outside lib/ledger asks for a seal", () => {
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      expect(text, f).not.toMatch(/\bledger\??:\s*(false|true|boolean)/);
      if (!f.startsWith("lib/ledger/")) expect(text, f).not.toMatch(/\bsealSoon\b/);
    }
  });
});
