import { beforeAll, describe, expect, it } from "vitest";
import { MAIL_EVENT_TYPES } from "@/lib/mail/events/event-types";
import { createWebhookTool } from "@/lib/tools/mailboxes/create-webhook";
import { listWebhooksTool } from "@/lib/tools/mailboxes/list-webhooks";
import { MCP_RESULT_BYTES } from "@/lib/tools/result-budget";
import { call, projectWithKey } from "./inbox-test-helpers";

/**
 * Mailbox spec "Result size" on list_webhooks: a key's 20 webhooks with long URLs (2 KB is allowed) and every event
 * type are far more than 19,000 bytes. Over MCP the page follows the ladder like every other list; REST is whole.
 */
let p: Awaited<ReturnType<typeof projectWithKey>>;
const longUrl = (i: number) => `https://hooks.example.com/brynth/${i}?token=${"t".repeat(1500)}`;
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

beforeAll(async () => {
  p = await projectWithKey("Webhook list budget");
  for (let i = 0; i < 20; i++) {
    await call(createWebhookTool, p.mcp, { request: { url: longUrl(i), event_types: [...MAIL_EVENT_TYPES] } });
  }
});

describe("list_webhooks under the MCP result budget", () => {
  it("20 webhooks with 1.5 KB URLs over MCP fit, say so and name the REST path; REST returns them all", async () => {
    const viaMcp = await call(listWebhooksTool, p.mcp, { limit: 20 });
    expect(bytes(viaMcp)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(viaMcp).toMatchObject({ count: 20, limit: 20, truncated: true, fix: expect.stringContaining("GET /api/v1/webhooks") });
    const viaRest = await call(listWebhooksTool, p.rest, { limit: 20 });
    expect(viaRest.webhooks).toHaveLength(20);
    expect(viaRest.webhooks.map((w: { url: string }) => w.url).sort()).toEqual(Array.from({ length: 20 }, (_, i) => longUrl(i)).sort());
    expect(viaRest.truncated).toBeUndefined();
  });

  it("a small page is answered whole over MCP", async () => {
    const out = await call(listWebhooksTool, p.mcp, { limit: 2 });
    expect(out.webhooks).toHaveLength(2);
    expect(out.webhooks[0].url).toMatch(/^https:\/\/hooks\.example\.com\//);
    expect(out.truncated).toBeUndefined();
  });
});
