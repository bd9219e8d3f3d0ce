import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import type { AppError } from "@/lib/errors";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { defaultMailbox } from "@/lib/mail/project-address";
import { emailSend } from "@/lib/tools/mail/email-send";
import { updateInbox } from "@/lib/tools/mailboxes/update-inbox";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";
import { runTool } from "@/lib/tools/run-tool";
import { startSink } from "@/lib/mail/__tests__/helpers";
import { blockManaged } from "@/lib/mail/lists/block-managed";

/**
 * The project address is a mailbox (design D1): what stops a mailbox's sends stops email_send's too. Before, email_send
 * read it with defaultMailbox() and looked at neither its status, its send policy nor its send lists.
 */
let p: Awaited<ReturnType<typeof projectWithKey>>;
let sink: Awaited<ReturnType<typeof startSink>>;
beforeAll(async () => {
  sink = await startSink();
  process.env.SMTP_RELAY_URL = sink.url;
  resetEnvCache();
  p = await projectWithKey("email_send and the project address");
});
afterAll(async () => {
  closeRelayTransports();
  await sink.close();
  delete process.env.SMTP_RELAY_URL;
  resetEnvCache();
});

async function emailSendOutcome(to = ["x@example.com"]) {
  const before = (await (await getDb()).select().from(mailMessages).where(eq(mailMessages.projectId, p.project.id))).length;
  try {
    await runTool(emailSend, p.mcp, { to, subject: "Hi", text: "x", wait_seconds: 0 }, new AbortController().signal);
  } catch (err) {
    const after = (await (await getDb()).select().from(mailMessages).where(eq(mailMessages.projectId, p.project.id))).length;
    return { code: (err as AppError).code, details: (err as AppError).details, written: after - before };
  }
  const after = (await (await getDb()).select().from(mailMessages).where(eq(mailMessages.projectId, p.project.id))).length;
  return { code: "ok", written: after - before };
}

describe("email_send from a project address that may not send", () => {
  it("a disabled project address (update_inbox status disabled) sends nothing", async () => {
    const home = await defaultMailbox(await getDb(), p.project.id);
    await call(updateInbox, p.mcp, { inboxId: home.id, status: "disabled" });
    const r = await emailSendOutcome();
    await (await getDb()).update(mailboxes).set({ status: "active" }).where(eq(mailboxes.id, home.id));
    expect(r).toEqual({ code: "CONFLICT", written: 0 });
  });
  it("a read_only project address (owner send policy) sends nothing", async () => {
    const home = await defaultMailbox(await getDb(), p.project.id);
    await (await getDb()).update(mailboxes).set({ sendPolicy: "read_only" }).where(eq(mailboxes.id, home.id));
    const r = await emailSendOutcome();
    await (await getDb()).update(mailboxes).set({ sendPolicy: "direct" }).where(eq(mailboxes.id, home.id));
    expect(r).toEqual({ code: "missing_permission", written: 0 });
  });

  it("refuses a recipient on the project address's send block list (one who bounced), naming it, and sends to nobody", async () => {
    const db = await getDb();
    const home = await defaultMailbox(db, p.project.id);
    await db.transaction((tx) => blockManaged(tx, { projectId: p.project.id, mailboxId: home.id, address: "gone@example.com", reason: "bounced: 5.1.1" }));
    expect(await emailSendOutcome(["fine@example.com", "gone@example.com"])).toMatchObject({
      code: "POLICY_DENIED",
      details: { field: "to.1", list: "send/block", address: "gone@example.com" },
      written: 0,
    });
    expect(await emailSendOutcome(["fine@example.com"])).toMatchObject({ code: "ok", written: 1 });
  });
});
