import { beforeAll, describe, expect, it } from "vitest";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { MCP_RESULT_BYTES } from "@/lib/tools/result-budget";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { getDraft } from "@/lib/tools/mailboxes/get-draft";
import { updateDraft } from "@/lib/tools/mailboxes/update-draft";
import { call, projectWithKey } from "./inbox-test-helpers";

/**
 * Mailbox spec "Result size": every MCP result stays under about 19,000 bytes. create_draft and update_draft answer
 * with the draft itself, bodies included (up to 256 KB each), so they follow the ladder as get_draft does; REST
 * still answers in full.
 */
let p: Awaited<ReturnType<typeof projectWithKey>>;
let inbox: string;
const big = "word ".repeat(20_000);
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

beforeAll(async () => {
  p = await projectWithKey("Draft write budget");
  inbox = (await seedMailbox(p.project.id)).id;
});

describe("the MCP result budget on the draft writes", () => {
  it("create_draft with 100 KB bodies answers within the budget over MCP, names get_draft's REST path, and saves everything", async () => {
    const out = await call(createDraft, p.mcp, { inboxId: inbox, subject: "Newsletter", text: big, html: `<p>${big}</p>` });
    expect(bytes(out)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(out).toMatchObject({ draft_id: expect.stringMatching(/^drf_/), inbox_id: inbox, truncated: true });
    expect(out.fix).toContain(`GET /api/v1/inboxes/${inbox}/drafts/${out.draft_id}`);
    const full = await call(getDraft, p.rest, { inbox_id: inbox, draft_id: out.draft_id });
    expect(full.text).toBe(big);
  });

  it("update_draft answers within the budget over MCP, and in full over REST", async () => {
    const { draft_id } = await call(createDraft, p.mcp, { inboxId: inbox, subject: "Small", text: "short" });
    const viaMcp = await call(updateDraft, p.mcp, { inboxId: inbox, draftId: draft_id, text: big });
    expect(bytes(viaMcp)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(viaMcp).toMatchObject({ draft_id, truncated: true, fix: expect.stringContaining(`/drafts/${draft_id}`) });
    const viaRest = await call(updateDraft, p.rest, { inbox_id: inbox, draft_id, html: `<p>${big}</p>` });
    expect(viaRest.text).toBe(big);
    expect(viaRest.truncated).toBeUndefined();
  });

  it("a small draft is answered whole over MCP", async () => {
    const out = await call(createDraft, p.mcp, { inboxId: inbox, subject: "Hi", text: "Hello" });
    expect(out.text).toBe("Hello");
    expect(out.truncated).toBeUndefined();
  });
});
