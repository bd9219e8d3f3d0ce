import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";

/** Owner REST in project A naming project B's ids (keys, channels, domains, webhooks, mailboxes): every one is refused. */
let c: Awaited<ReturnType<typeof ownerClient>>;
let b: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  c = await ownerClient("Cross-project A");
  b = await seedProject({ name: "Cross-project B" });
});
afterAll(() => c.server.close());

describe("owner REST and another project's ids", () => {
  it("refuses B's ids from A on every route that takes one", async () => {
    const inB = { "x-brynth-project": b.project.id };
    const box = await seedMailbox(b.project.id);
    const ch = await c.call("POST", "/owner/channels", { kind: "email", address: box.address }, inB);
    const dom = await c.call("POST", "/owner/mail/domains", { domain: "b-cross.example.org" }, inB);
    const hook = await c.call("POST", "/owner/webhooks", { url: "https://example.org/hook", event_types: ["message.received"] }, inB);
    const ids = { channel: ch.body.channel_id ?? ch.body.id, domain: dom.body.id, hook: hook.body.id ?? hook.body.webhook_id };
    expect(Object.values(ids).every(Boolean), JSON.stringify([ch.body, dom.body, hook.body])).toBe(true);

    const probes: [string, string, unknown?][] = [
      ["DELETE", `/keys/${b.key.id}`],
      ["DELETE", `/owner/channels/${ids.channel}`],
      ["POST", `/owner/channels/${ids.channel}/approve`],
      ["POST", `/owner/mail/domains/${ids.domain}/check`],
      ["DELETE", `/owner/mail/domains/${ids.domain}`],
      ["GET", `/owner/webhooks/${ids.hook}`],
      ["GET", `/owner/webhooks/${ids.hook}/headers`],
      ["PATCH", `/owner/webhooks/${ids.hook}`, { enabled: false }],
      ["PATCH", `/owner/webhooks/${ids.hook}/headers`, { headers: { "x-a": "b" } }],
      ["POST", `/owner/webhooks/${ids.hook}/rotate-secret`],
      ["POST", `/owner/webhooks/${ids.hook}/test`],
      ["DELETE", `/owner/webhooks/${ids.hook}`],
      ["GET", `/owner/webhook-attempts?webhook_id=${ids.hook}`],
      ["PATCH", `/owner/inboxes/${box.id}/send-policy`, { send_policy: "approval" }],
      ["PATCH", `/owner/inboxes/${box.address}/send-policy`, { send_policy: "approval" }],
      ["GET", `/owner/mail/lists/receive/block?inbox_id=${box.id}`],
      ["POST", `/owner/mail/lists/receive/block`, { inbox_id: box.id, entry: "x@example.org" }],
      ["GET", `/owner/quarantine?inbox_id=${box.id}`],
      ["GET", `/owner/rejections?inbox_id=${box.id}`],
    ];
    const answers: string[] = [];
    for (const [method, path, body] of probes) {
      const r = await c.call(method, path, body ?? (method === "GET" || method === "DELETE" ? undefined : {}));
      answers.push(`${r.status} ${method} ${path} ${r.status < 300 ? JSON.stringify(r.body).slice(0, 200) : r.body.error?.code}`);
    }

    expect(answers.filter((a) => a.startsWith("2"))).toEqual([]);
  });
});
