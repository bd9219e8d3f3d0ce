import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import MailComposer from "nodemailer/lib/mail-composer";
import { getDb } from "@/lib/db/client";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { defaultMailbox } from "@/lib/mail/project-address";
import { startApiServer } from "@/lib/testing/api-server";
import { OWNER_EMAIL, OWNER_PASSWORD, seedKey, seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;

/** The `data` of each `mail` message as it arrives; `open` resolves once the subscription is live. */
function collect(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const seen: Array<{ mailbox: string | null }> = [];
  let buffer = "";
  let opened = () => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^: stream open$/m.test(block)) opened();
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (block.startsWith("event: mail\n") && data) seen.push(JSON.parse(data));
      }
    }
  })();
  return { open, seen, stop: () => reader.cancel().catch(() => {}) };
}

async function deliver(projectId: string) {
  const db = await getDb();
  const mailbox = await defaultMailbox(db, projectId);
  const raw = await new MailComposer({ from: "ada@example.org", to: mailbox.address, subject: "Live?", text: "Hello" }).compile().build();
  await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [mailbox], remote: "local" });
  return mailbox.id;
}

describe("GET /api/v1/mail/stream", () => {
  it("tells the owner which mailbox of the chosen project has new mail, and nothing of another project", async () => {
    const other = await seedProject({ name: "other" });
    const chosen = await seedProject({ name: "chosen" });
    const res = await fetch(`${server.url}/api/v1/mail/stream`, { headers: { authorization: basic, "x-brynth-project": chosen.project.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const stream = collect(res);
    await stream.open;
    await deliver(other.project.id);
    const mailboxId = await deliver(chosen.project.id);
    await vi.waitFor(() => expect(stream.seen).toContainEqual({ mailbox: mailboxId }), { timeout: 10_000 });
    await stream.stop();
    expect(stream.seen.every((s) => s.mailbox === mailboxId)).toBe(true);
  });

  it("serves a key with message_read and refuses one without it, naming the scope", async () => {
    const seeded = await seedProject();
    const reader = await seedKey(seeded.project.id, ["message_read"], "reader");
    const ok = await fetch(`${server.url}/api/v1/mail/stream`, { headers: { authorization: `Bearer ${reader.secret}` } });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
    const { secret } = await seedKey(seeded.project.id, ["disk"], "disk only");
    const res = await fetch(`${server.url}/api/v1/mail/stream`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("missing_permission");
    expect(body.error.message).toContain("message_read");
  });
});
