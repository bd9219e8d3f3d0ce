import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { AppError } from "@/lib/errors";
import { runTool } from "@/lib/tools/run-tool";
import { createWebhookTool } from "@/lib/tools/mailboxes/create-webhook";
import { deleteWebhookTool } from "@/lib/tools/mailboxes/delete-webhook";
import { getWebhookTool } from "@/lib/tools/mailboxes/get-webhook";
import { listWebhooksTool } from "@/lib/tools/mailboxes/list-webhooks";
import { updateWebhookTool } from "@/lib/tools/mailboxes/update-webhook";
import { updateWebhookHeadersTool } from "@/lib/tools/mailboxes/update-webhook-headers";
import { getWebhookHeadersTool } from "@/lib/tools/mailboxes/get-webhook-headers";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/** Hostile input on every webhook tool: a validation_error (or NOT_FOUND), never a 500, and nothing written. */
let p: Awaited<ReturnType<typeof projectWithKey>>;
let hookId: string;

const rows = async () => (await getDb()).select().from(mailWebhooks).where(eq(mailWebhooks.projectId, p.project.id)).orderBy(mailWebhooks.id);

async function outcome(tool: Parameters<typeof runTool>[0], args: unknown): Promise<string> {
  try {
    await runTool(tool, p.mcp, args, new AbortController().signal);
    return "accepted";
  } catch (err) {
    if (!(err instanceof AppError)) return `500: ${String(err).slice(0, 200)}`;
    return err.code;
  }
}

beforeAll(async () => {
  p = await projectWithKey("Webhook hostile input");
  hookId = (await call(createWebhookTool, p.mcp, { request: { url: "https://hooks.example.com/ok", event_types: ["message.received"] } })).webhook_id;
});

const BAD_URLS = [
  "https://0x7f000001/",
  "https://0177.0.0.1/",
  "https://127.1/",
  "https://[::1]/",
  "https://[::]/",
  "https://0.0.0.0/",
  "https://[::ffff:7f00:1]/",
  "https://[0:0:0:0:0:ffff:127.0.0.1]/",
  "https://[::127.0.0.1]/",
  "https://[64:ff9b::a9fe:a9fe]/",
  "https://[fe80::1]/",
  "https://[fd00:ec2::254]/",
  "https://100.100.100.200/",
  "https://foo.localhost/",
  "https://LOCALHOST/",
  "https://metadata.google.internal/",
  "https://printer.local/",
  "https://intranet/",
  "https://%6c%6f%63%61%6c%68%6f%73%74/",
  "https://127.0.0.1.nip.io:25/",
  "https://hooks.example.com:465/",
  "ftp://hooks.example.com/",
  "javascript:alert(1)",
  "https://:pw@hooks.example.com/",
  "https://u@hooks.example.com/",
];

describe("SSRF: the same refusal on create and on update", () => {
  it.each(BAD_URLS)("%s", async (url) => {
    const before = await rows();
    const created = await outcome(createWebhookTool, { request: { url, event_types: ["message.received"] } });
    const updated = await outcome(updateWebhookTool, { webhookId: hookId, request: { url } });
    expect({ created, updated }).toEqual({ created: "validation_error", updated: "validation_error" });
    expect(await rows()).toEqual(before);
  });
});

describe("malformed arguments never give a 500 or write", () => {
  const cases: Array<[string, Parameters<typeof runTool>[0], () => unknown]> = [
    ["create, request null", createWebhookTool, () => ({ request: null })],
    ["create, request array", createWebhookTool, () => ({ request: [] })],
    ["create, url number", createWebhookTool, () => ({ request: { url: 5, event_types: ["message.received"] } })],
    ["create, 3 KB url", createWebhookTool, () => ({ request: { url: `https://hooks.example.com/${"a".repeat(3000)}`, event_types: ["message.received"] } })],
    ["create, event_types string", createWebhookTool, () => ({ request: { url: "https://hooks.example.com/x", event_types: "message.received" } })],
    [
      "create, inbox_ids with NUL",
      createWebhookTool,
      () => ({ request: { url: "https://hooks.example.com/x", event_types: ["message.received"], inbox_ids: ["mbx_\u0000"] } }),
    ],
    [
      "create, inbox_ids with an address with NUL",
      createWebhookTool,
      () => ({ request: { url: "https://hooks.example.com/x", event_types: ["message.received"], inbox_ids: ["a\u0000@b.c"] } }),
    ],
    [
      "create, client_id with NUL",
      createWebhookTool,
      () => ({ request: { url: "https://hooks.example.com/x", event_types: ["message.received"], client_id: "a\u0000b" } }),
    ],
    ["create, url with NUL", createWebhookTool, () => ({ request: { url: "https://hooks.example.com/\u0000", event_types: ["message.received"] } })],
    ["create, lone surrogate in url", createWebhookTool, () => ({ request: { url: "https://hooks.example.com/\ud800", event_types: ["message.received"] } })],
    [
      "create, inboxId with NUL",
      createWebhookTool,
      () => ({ inboxId: "mbx_\u0000", request: { url: "https://hooks.example.com/x", event_types: ["message.received"] } }),
    ],
    ["get, webhookId with NUL", getWebhookTool, () => ({ webhookId: "whk_\u0000" })],
    ["delete, webhookId with NUL", deleteWebhookTool, () => ({ webhookId: "whk_\u0000" })],
    ["get headers, webhookId with NUL", getWebhookHeadersTool, () => ({ webhookId: "whk_\u0000" })],
    ["update, enabled string", updateWebhookTool, () => ({ webhookId: hookId, request: { enabled: "false" } })],
    ["update, event_types []", updateWebhookTool, () => ({ webhookId: hookId, request: { event_types: [] } })],
    ["update, inbox_ids unknown", updateWebhookTool, () => ({ webhookId: hookId, request: { inbox_ids: ["mbx_nope"] } })],
    ["headers, __proto__", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { headers: JSON.parse('{"__proto__": "x"}') } })],
    ["headers, value with DEL", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { headers: { "X-A": "a\u007fb" } } })],
    ["headers, value with lone surrogate", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { headers: { "X-A": "\ud800" } } })],
    ["headers, name Webhook-Id", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { headers: { "Webhook-Id": "x" } } })],
    ["headers, name with space", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { headers: { "X A": "x" } } })],
    ["headers, name empty", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { headers: { "": "x" } } })],
    ["headers, value not a string", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { headers: { "X-A": 5 } } })],
    ["headers, remove_headers with NUL", updateWebhookHeadersTool, () => ({ webhookId: hookId, request: { remove_headers: ["X\u0000"] } })],
    ["list, pageToken garbage", listWebhooksTool, () => ({ pageToken: "garbage" })],
    ["list, limit 0", listWebhooksTool, () => ({ limit: 0 })],
    ["list, limit 1000", listWebhooksTool, () => ({ limit: 1000 })],
    ["list, inboxId with NUL", listWebhooksTool, () => ({ inboxId: "x\u0000@y.z" })],
  ];
  it.each(cases)("%s", async (_name, tool, args) => {
    const before = await rows();
    const got = await outcome(tool, args());
    expect(got).toMatch(/^(validation_error|NOT_FOUND)$/);
    expect(await rows()).toEqual(before);
  });
});
