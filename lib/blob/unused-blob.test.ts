import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { putFile } from "@/lib/disk/put-file";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { outboundRaw } from "@/lib/mail/outbound/outbound-raw";
import { queueOutbound } from "@/lib/mail/outbound/queue-message";
import { envSettings } from "@/lib/testing/env-settings";
import { rawMail, seedMailbox } from "@/lib/testing/mail-fixture";
import { projectWithKey, refusal } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";

/**
 * Bytes written to the store for rows that never came stayed there with nothing naming them, until the project was
 * deleted (found by helper-108, helper-109, helper-112): a file_put whose transaction failed after its row, a send
 * refused for quota after its attachments were stored, a message received twice, two deliveries composing one raw
 * message. Counted in the local store, where every object of a project is a file under DATA_DIR/blobs/projects/<id>.
 */
function objects(projectId: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const f of readdirSync(dir)) {
      const path = join(dir, f);
      if (statSync(path).isDirectory()) walk(path);
      else if (!f.endsWith(".tmp")) out.push(path);
    }
  };
  walk(join(process.env.DATA_DIR ?? "", "blobs", "projects", projectId));
  return out.sort();
}

const quota = envSettings("EMAIL_");
let p: Awaited<ReturnType<typeof projectWithKey>>;
beforeAll(async () => {
  p = await projectWithKey("Unused blobs");
});
afterAll(() => quota.restore());

describe("bytes no row names", () => {
  it("are deleted when the transaction that wrote them rolls back after the row (file_put)", async () => {
    const before = objects(p.project.id);
    const db = await getDb();
    const failed = db.transaction(async (tx) => {
      await putFile(tx, { actor: p.actor, path: "a/late.txt", contentBase64: Buffer.from("bytes").toString("base64") });
      throw new Error("the ledger entry failed");
    });
    await expect(failed).rejects.toThrow("the ledger entry failed");
    // Rollback tasks run after the rollback, without holding the caller's answer.
    await expect.poll(() => objects(p.project.id), { timeout: 5000 }).toEqual(before);
  });

  it("are not written for good by a send refused for quota after its attachments were stored", async () => {
    const from = await seedMailbox(p.project.id);
    const to = await seedMailbox(p.project.id);
    quota.set({ EMAIL_DAILY_LIMIT: "0", EMAIL_MONTHLY_LIMIT: "0" });
    const before = objects(p.project.id);
    const err = await refusal(sendMessage, p.mcp, {
      inboxId: from.id,
      to: [to.address],
      subject: "Over quota",
      text: "x",
      attachments: [{ filename: "a.pdf", contentType: "application/pdf", content: Buffer.from("%PDF-1.4").toString("base64") }],
    });
    expect(err.code).toBe("QUOTA_EXCEEDED");
    await expect.poll(() => objects(p.project.id), { timeout: 5000 }).toEqual(before);
    quota.restore();
  });

  it("are deleted when a message arrives again: the copy stored first keeps its own", async () => {
    const box = await seedMailbox(p.project.id);
    const raw = await rawMail({
      from: "ada@example.org",
      to: box.address,
      subject: "Twice",
      text: "hello",
      attachments: [{ filename: "a.txt", content: "attached" }],
    });
    const receive = () => receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [box], remote: "local" });
    const [first] = await receive();
    const stored = objects(p.project.id);
    const [again] = await receive();
    expect(again).toMatchObject({ messageId: first.messageId, duplicate: true });
    expect(objects(p.project.id)).toEqual(stored);
  });

  it("are deleted when another delivery of the message recorded its raw copy first", async () => {
    const from = await seedMailbox(p.project.id);
    const to = [await seedMailbox(p.project.id), await seedMailbox(p.project.id)].map((m) => m.address);
    const db = await getDb();
    const [queued] = await db.transaction((tx) =>
      queueOutbound(tx, {
        mailbox: from,
        items: [{ to, subject: "Two deliveries", text: "x", html: null }],
        attachments: [],
        batchId: null,
        replyToInbox: true,
        countsQuota: false,
        keyId: null,
        agent: null,
      }),
    );
    const [m] = await db.select().from(mailMessages).where(eq(mailMessages.id, queued.id));
    const before = objects(p.project.id);
    const [a, b] = await Promise.all([outboundRaw(db, m, from, { local: true }), outboundRaw(db, m, from, { local: true })]);
    expect(a.equals(b)).toBe(true);
    expect(objects(p.project.id)).toHaveLength(before.length + 1);
  });
});
