import { beforeAll, describe, expect, it } from "vitest";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { searchMessages } from "@/lib/tools/mailboxes/search-messages";
import { searchThreads } from "@/lib/tools/mailboxes/search-threads";
import { actorVia, call, type Seeded } from "@/lib/tools/mailboxes/__tests__/mail-actors";
import { insertThread } from "@/lib/tools/mailboxes/__tests__/read-fixtures";

/**
 * A run of dashes in a query is a separator (searchWords), not one NOT (found by helper-119):
 * - `--verbose` (a CLI flag quoted in mail) found every other message and missed the one holding the word;
 * - `foo--bar` (a double hyphen used as a dash) became the hyphenated word `foo-bar`, which the text does not hold.
 */
let seeded: Seeded;
let inbox: string;
const m: Record<string, string> = {};
const t: Record<string, string> = {};
beforeAll(async () => {
  seeded = await seedProject({ name: "Dashes" });
  inbox = (await seedMailbox(seeded.project.id)).id;
  const add = async (name: string, minute: number, text: string) => {
    const made = await insertThread(seeded.project.id, inbox, [{ at: `2026-11-22T07:0${minute}:00.000Z`, subject: "Build notes", text }]);
    m[name] = made.messageIds[0];
    t[name] = made.threadId;
  };
  await add("flag", 1, "Run the installer with --verbose please");
  await add("other", 2, "Lunch on Friday");
  await add("dash", 3, "The release--finally--shipped today");
});
const ids = (out: Record<string, any>) => (out.messages as { message_id: string }[]).map((x) => x.message_id);

describe("a double dash inside a query", () => {
  it("--verbose finds the message with --verbose, not every other message", async () => {
    expect(ids(await call(searchMessages, actorVia(seeded, "mcp"), { inboxId: inbox, q: "--verbose" }))).toEqual([m.flag]);
  });
  it("search_threads: --verbose", async () => {
    const out = await call(searchThreads, actorVia(seeded, "rest"), { q: "--verbose" });
    expect(out.threads.map((x: { thread_id: string }) => x.thread_id)).toEqual([t.flag]);
  });
  it("release--finally (text copied from the mail) finds it", async () => {
    expect(ids(await call(searchMessages, actorVia(seeded, "mcp"), { inboxId: inbox, q: "release--finally" }))).toEqual([m.dash]);
  });
});
