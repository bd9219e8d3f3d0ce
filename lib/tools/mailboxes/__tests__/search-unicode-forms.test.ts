import { beforeAll, describe, expect, it } from "vitest";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { listMessages } from "@/lib/tools/mailboxes/list-messages";
import { searchMessages } from "@/lib/tools/mailboxes/search-messages";
import { actorVia, call, type Seeded } from "@/lib/tools/mailboxes/__tests__/mail-actors";
import { insertThread } from "@/lib/tools/mailboxes/__tests__/read-fixtures";

/**
 * "café" typed on most keyboards is NFC (U+00E9); mail composed on macOS often arrives NFD (e + U+0301). Each form
 * found only its own messages (found by helper-119). The search vector is NFC (migration 0039), and so are the
 * query and the subject filter.
 */
const NFC = "caf\u00e9";
const NFD = "cafe\u0301";
let seeded: Seeded;
let inbox: string;
let composed: string;
let decomposed: string;
beforeAll(async () => {
  seeded = await seedProject({ name: "Unicode" });
  inbox = (await seedMailbox(seeded.project.id)).id;
  composed = (await insertThread(seeded.project.id, inbox, [{ at: "2026-11-22T07:00:00.000Z", subject: `Le ${NFC}`, text: `Rendez-vous au ${NFC}` }]))
    .messageIds[0];
  decomposed = (await insertThread(seeded.project.id, inbox, [{ at: "2026-11-22T08:00:00.000Z", subject: `Le ${NFD}`, text: `Rendez-vous au ${NFD}` }]))
    .messageIds[0];
});
const ids = (out: Record<string, any>) => (out.messages as { message_id: string }[]).map((m) => m.message_id).sort();

describe("composed and decomposed forms find the same mail", () => {
  it("search_messages q in NFC finds the NFD message too", async () => {
    const out = await call(searchMessages, actorVia(seeded, "mcp"), { inboxId: inbox, q: NFC });
    expect(ids(out)).toEqual([composed, decomposed].sort());
  });
  it("search_messages q in NFD finds the NFC message too", async () => {
    const out = await call(searchMessages, actorVia(seeded, "rest"), { inbox_id: inbox, q: NFD });
    expect(ids(out)).toEqual([composed, decomposed].sort());
  });
  it("list_messages subject filter in NFC finds the NFD subject too", async () => {
    const out = await call(listMessages, actorVia(seeded, "mcp"), { inboxId: inbox, subject: [NFC] });
    expect(ids(out)).toEqual([composed, decomposed].sort());
  });
});
