import { beforeAll, describe, expect, it } from "vitest";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { searchMessages } from "@/lib/tools/mailboxes/search-messages";
import { searchThreads } from "@/lib/tools/mailboxes/search-threads";
import { actorVia, call, type Seeded } from "@/lib/tools/mailboxes/__tests__/mail-actors";
import { insertThread } from "@/lib/tools/mailboxes/__tests__/read-fixtures";

/**
 * websearch_to_tsquery skips ! & | ( ) < yet keeps counting the dashes around them as nested NOTs, so `-!-!-!…` (or
 * `-(-(-(…`) overflowed PostgreSQL's tsquery stack: "tsquery stack too small", a 500 over REST (found by
 * helper-119). Odd syntax is read as the words it holds, and never fails.
 */
let seeded: Seeded;
let inbox: string;
let msg: string;
beforeAll(async () => {
  seeded = await seedProject({ name: "Stack" });
  inbox = (await seedMailbox(seeded.project.id)).id;
  const made = await insertThread(seeded.project.id, inbox, [{ at: "2026-11-22T07:00:00.000Z", subject: "Invoice", text: "the invoice" }]);
  msg = made.messageIds[0];
});

describe("websearch NOT nesting past the dash collapse", () => {
  for (const q of ["-!".repeat(40) + "invoice", "-(".repeat(40) + "invoice", "-&".repeat(40) + "x", "invoice " + "-| ".repeat(40) + "spam"]) {
    it(`search_messages q=${JSON.stringify(q.slice(0, 12))}… (MCP)`, async () => {
      const out = await call(searchMessages, actorVia(seeded, "mcp"), { inboxId: inbox, q });
      expect(Array.isArray(out.messages)).toBe(true);
    });
    it(`search_threads q=${JSON.stringify(q.slice(0, 12))}… (REST)`, async () => {
      const out = await call(searchThreads, actorVia(seeded, "rest"), { q });
      expect(Array.isArray(out.threads)).toBe(true);
    });
  }
  it("a sane control query still works", async () => {
    const out = await call(searchMessages, actorVia(seeded, "mcp"), { inboxId: inbox, q: "invoice" });
    expect(out.messages.map((m: { message_id: string }) => m.message_id)).toEqual([msg]);
  });
});
