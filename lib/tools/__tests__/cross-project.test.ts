import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { fillExample, seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { changedTables, projectFingerprint } from "@/lib/testing/fuzz/project-fingerprint";
import { watchProcessFaults } from "@/lib/testing/fuzz/process-faults";
import { eventsOf } from "@/lib/testing/events";
import { tools } from "@/lib/tools/registry";
import { onTransport } from "@/lib/tools/define-tool";
import type { AnyTool } from "@/lib/tools/run-tool";

/**
 * One project's key against another project's real objects. Project B (the victim) holds one of everything a call
 * can name by id or reference: a mail conversation with an attachment and a draft, an inbound email event, a file and
 * its `disk://` reference, an open upload, an approval request, an email channel. Project A's key (every scope) then
 * names them: every mailbox tool's example filled with B's ids (and again with A's own mailbox but B's thread,
 * message, draft and attachment), and each first-spec field that takes an id or a reference. Every such call is
 * refused (a delete answers `deleted: false`), nothing of B changes, and no answer carries B's content.
 */
const SECRET = "victim-secret-7f3a";
let server: Awaited<ReturnType<typeof startApiServer>>;
let attacker: Client;
let victimProject: string;
let victimMail: MailFixture;
let attackerBox: { id: string; address: string };
const victim = { event: "", attachment: "", ref: "", upload: "", request: "", channel: "" };
const faults = watchProcessFaults();

type Answer = { isError: boolean; code?: string; text: string };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const res = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  const text = res.content.map((c) => c.text).join("\n");
  return { isError: res.isError === true, code: res.isError ? JSON.parse(res.content[0].text).code : undefined, text };
}

beforeAll(async () => {
  server = await startApiServer();
  const a = await seedProject({ name: "Attacker" });
  const b = await seedProject({ name: "Victim" });
  victimProject = b.project.id;
  attacker = (await connectMcp(server.url, a.secret)).client;
  const box = await seedMailbox(a.project.id);
  attackerBox = { id: box.id, address: box.address };

  // B's objects, made the way B's own agent would make them.
  const owner = (await connectMcp(server.url, b.secret)).client;
  const ok = async (name: string, args: Record<string, unknown>) => {
    const res = await call(owner, name, args);
    if (res.isError) throw new Error(`seeding ${name}: ${res.text}`);
    return JSON.parse(res.text);
  };
  victim.ref = (await ok("file_put", { path: "private/plan.txt", content_base64: Buffer.from(SECRET).toString("base64") })).ref;
  victim.upload = (await ok("file_put", { path: "private/big.bin", upload: { size: 2_000_000, content_type: "application/octet-stream" } })).upload_id;
  await ok("kv_set", { key: "private/k", value: SECRET });
  victim.request = (await ok("ask_approval", { action: "wire.transfer", summary: SECRET, wait_seconds: 0 })).request_id;
  await ok("source_add", { type: "email", name: "email" });
  victim.channel = (await ok("channel_add", { kind: "email", address: "approver@brynth.localhost", label: "victim" })).channel_id;
  await owner.close();
  // Mail to B's project address becomes an email.received event with its attachment as `evt_…/q3.csv`; a second
  // mailbox gets the conversation the mailbox tools' examples name.
  await seedReceivedMail(victimProject);
  const [received] = await eventsOf({ projectId: victimProject }, { type: "email.received" });
  victim.event = received.id;
  victim.attachment = `${received.id}/q3.csv`;
  victimMail = await seedReceivedMail(victimProject, (await seedMailbox(victimProject)).id);
});
afterAll(async () => {
  faults.stop();
  await attacker?.close();
  await server?.close();
});

/** Calls with A's key and checks the call was refused, B is as it was, and the answer holds none of B's content. */
async function refusedWithoutTrace(name: string, args: Record<string, unknown>): Promise<Answer> {
  const before = await projectFingerprint(victimProject);
  const res = await call(attacker, name, args);
  const where = `${name} ${JSON.stringify(args).slice(0, 300)}`;
  // Deletes answer "nothing there" as a result, not an error: `{deleted: false}`.
  if (!res.isError) expect(JSON.parse(res.text).deleted, `${where} answered ${res.text.slice(0, 300)}`).toBe(false);
  expect(res.code, where).not.toBe("internal_error");
  expect(changedTables(before, await projectFingerprint(victimProject)), where).toEqual([]);
  for (const content of [SECRET, "Quarterly numbers", "quarter,revenue", "Draft body.", "draft notes"]) {
    expect(res.text, where).not.toContain(content);
  }
  expect(faults.take(), where).toEqual([]);
  return res;
}

/** Mailbox tools whose example names a mail object by placeholder (the rest create or list, in A's own project). */
const namingTools = tools.filter((t) => onTransport(t, "mcp") && t.example !== undefined && /\{\{\w+\}\}/.test(JSON.stringify(t.example)));

describe("another project's mail objects", () => {
  it.each(namingTools.map((t) => [t.name, t] as const))("%s refuses B's ids, in B's mailbox and in A's own", async (_name, tool: AnyTool) => {
    await refusedWithoutTrace(tool.name, fillExample(tool.example, victimMail) as Record<string, unknown>);
    // A's own mailbox (so the mailbox check passes) with B's thread, message, draft and attachment.
    const mixed = { ...victimMail, inbox: attackerBox.id, address: attackerBox.address };
    const args = fillExample(tool.example, mixed) as Record<string, unknown>;
    // A call naming nothing of B's (an example that names only the mailbox) is A's own business.
    if (
      JSON.stringify(args) !== JSON.stringify(fillExample(tool.example, { ...mixed, thread: "", message: "", draft: "", attachment: "", draftAttachment: "" }))
    ) {
      await refusedWithoutTrace(tool.name, args);
    }
  });

  it("refuses B's message as a forward source, and B's attachments by path, on A's own mailbox", async () => {
    await refusedWithoutTrace("create_draft", { inboxId: attackerBox.id, to: [attackerBox.address], forwardOf: victimMail.message });
    for (const path of [victim.ref, victim.attachment, `${victimMail.message}/q3.csv`]) {
      await refusedWithoutTrace("send_message", {
        inboxId: attackerBox.id,
        to: [attackerBox.address],
        subject: "exfil",
        text: "see attached",
        attachments: [{ path }],
      });
      await refusedWithoutTrace("create_draft", { inboxId: attackerBox.id, to: [attackerBox.address], attachments: [{ path }] });
    }
  });
});

describe("another project's events, requests, channels and files", () => {
  it("refuses B's event in the inbox tools", async () => {
    for (const name of ["inbox_claim", "inbox_ack"]) await refusedWithoutTrace(name, { event_id: victim.event });
    await refusedWithoutTrace("inbox_nack", { event_id: victim.event, reason: "x" });
  });

  it("refuses B's request and channel", async () => {
    await refusedWithoutTrace("request_status", { request_id: victim.request });
    await refusedWithoutTrace("channel_remove", { channel_id: victim.channel });
    await refusedWithoutTrace("ask_approval", { action: "x", summary: "x", approvers: [victim.channel], wait_seconds: 0 });
    await refusedWithoutTrace("policy_set", {
      policy: { rules: [{ id: "to-victim", action: "*", effect: "require_approval", approvers: [victim.channel] }] },
      wait_seconds: 0,
    });
  });

  it("refuses B's disk:// reference, inbound attachment and upload in the file tools and email_send", async () => {
    for (const path of [victim.ref, victim.attachment]) {
      await refusedWithoutTrace("file_get", { path });
      await refusedWithoutTrace("file_url", { path });
      await refusedWithoutTrace("email_send", { to: [attackerBox.address], subject: "exfil", text: "x", attachments: [path], wait_seconds: 0 });
    }
    // (A `disk://` reference is a path in the caller's own project: file_put to B's writes A's own file.)
    await refusedWithoutTrace("file_delete", { path: victim.ref });
    await refusedWithoutTrace("file_put", { path: "private/big.bin", complete: victim.upload });
    await refusedWithoutTrace("file_url", { path: "private/plan.txt", approval: victim.request });
  });
});
