import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { count, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailMessages } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import { putFile } from "@/lib/disk/put-file";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { mcpCall, restCall } from "@/lib/tools/events/__tests__/tool-client";

/** email_send's contract at the boundary: every bad input is refused before anything is written. */
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let client: Client;

beforeAll(async () => {
  delete process.env.SMTP_RELAY_URL;
  resetEnvCache();
  server = await startApiServer();
  seeded = await seedProject();
  client = (await connectMcp(server.url, seeded.secret)).client;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await putFile(tx, { actor: seeded.actor, path: "docs/a.txt", contentBase64: Buffer.from("hello").toString("base64"), contentType: "text/plain" });
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const local = "someone@brynth.localhost";
const send = (args: Record<string, unknown>) => mcpCall(client, "email_send", { subject: "Hi", text: "Hello", ...args });
const written = async () => {
  const db = await getDb();
  const [m] = await db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.projectId, seeded.project.id));
  const [j] = await db.select({ n: count() }).from(jobs).where(eq(jobs.projectId, seeded.project.id));
  return m.n + j.n;
};

describe("email_send input", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["a display name", { to: ['"Bob" <bob@brynth.localhost>'] }, "to.0"],
    ["a bare display-name form", { to: ["Bob <bob@brynth.localhost>"] }, "to.0"],
    ["a non-ASCII recipient", { to: ["jürgen@brynth.localhost"] }, "to.0"],
    ["an IDN domain", { to: ["bob@bücher.example"] }, "to.0"],
    ["CR/LF in an address", { to: ["bob@brynth.localhost\r\nBcc: eve@evil.example"] }, "to.0"],
    ["51 recipients", { to: Array.from({ length: 51 }, (_, i) => `r${i}@brynth.localhost`) }, "to"],
    ["an empty to", { to: [] }, "to"],
    ["a two-line subject", { to: [local], subject: "Hello\r\nBcc: eve@evil.example" }, "subject"],
    ["a subject with a bare LF", { to: [local], subject: "Hello\nWorld" }, "subject"],
    ["a subject over 255 characters", { to: [local], subject: "x".repeat(256) }, "subject"],
    ["text over 256 KB", { to: [local], text: "x".repeat(256 * 1024 + 1) }, "text"],
    ["html over 256 KB", { to: [local], html: "é".repeat(128 * 1024 + 1) }, "html"],
    ["an eleventh attachment", { to: [local], attachments: Array.from({ length: 11 }, () => "docs/a.txt") }, "attachments"],
    ["an attachment name like ../../x", { to: [local], attachments: ["../../x"] }, "attachments.0"],
    ["a missing text", { to: [local], text: undefined }, "text"],
    ["an unknown argument", { to: [local], bcc: ["eve@evil.example"] }, "bcc"],
    ["wait_seconds over 120", { to: [local], wait_seconds: 121 }, "wait_seconds"],
    ["the same recipient twice", { to: [local, local.toUpperCase()] }, "to.1"],
  ];
  it.each(cases)("refuses %s with validation_error naming the field", async (_what, args, field) => {
    const before = await written();
    const res = await send(args);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.code).toBe("validation_error");
    expect(res.message).toContain(field);
    expect(await written()).toBe(before);
  });

  it("refuses a missing disk path with NOT_FOUND naming it", async () => {
    const res = await send({ to: [local], attachments: ["docs/a.txt", "docs/missing.pdf"] });
    expect(res).toMatchObject({ ok: false, code: "NOT_FOUND" });
    if (!res.ok) expect(res.message).toContain("docs/missing.pdf");
    const evt = await send({ to: [local], attachments: ["evt_doesnotexist0000000000/file.pdf"] });
    expect(evt).toMatchObject({ ok: false, code: "NOT_FOUND" });
  });

  it("refuses attachments over 10 MB in total", async () => {
    // A real 10.5 MB disk file, uploaded through file_put's presigned path.
    const size = 10 * 1024 * 1024 + 512 * 1024;
    const started = await mcpCall(client, "file_put", { path: "big/report.bin", upload: { size, content_type: "application/octet-stream" } });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const put = await fetch(started.data.upload_url, { method: "PUT", headers: started.data.upload_headers, body: Buffer.alloc(size, 7) });
    expect(put.status).toBeLessThan(300);
    expect(await mcpCall(client, "file_put", { path: "big/report.bin", complete: started.data.upload_id })).toMatchObject({ ok: true });
    const before = await written();
    const res = await send({ to: [local], attachments: ["docs/a.txt", "big/report.bin"] });
    expect(res).toMatchObject({ ok: false, code: "validation_error" });
    if (!res.ok) expect(res.message).toContain("attachments");
    expect(await written()).toBe(before);
  });

  it("answers service_unavailable for an outside recipient without a relay, and queues nothing", async () => {
    const before = await written();
    const res = await send({ to: [local, "bob@example.com"] });
    expect(res).toMatchObject({ ok: false, code: "service_unavailable" });
    expect(await written()).toBe(before);
    const rest = await restCall(server.url, seeded.secret, "POST", "/emails", { to: ["bob@example.com"], subject: "x", text: "y" });
    expect(rest.status).toBe(503);
    expect(rest.body.error.code).toBe("service_unavailable");
  });

  it("queues one message per recipient and returns them", async () => {
    const res = await send({ to: ["a@brynth.localhost", "b@brynth.localhost"], attachments: ["docs/a.txt", "disk://docs/a.txt"] });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.data).toMatchObject({ status: "queued", request_id: null });
    expect(res.data.batch_id).toMatch(/^bat_/);
    expect(res.data.messages.map((m: { to: string }) => m.to)).toEqual(["a@brynth.localhost", "b@brynth.localhost"]);
    expect(res.data.messages.every((m: { status: string; message_id: string }) => m.status === "queued" && m.message_id.startsWith("msg_"))).toBe(true);
  });
});
