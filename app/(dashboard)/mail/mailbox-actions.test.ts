import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import MailComposer from "nodemailer/lib/mail-composer";
import type { z } from "zod";
import { localDeliveries, unreadCounts } from "@/components/mailboxes/owner-mail-reads";
import { createMailboxDef, deleteMailboxDef, markThreadReadDef, setThreadLabelsDef, trashThreadDef } from "@/components/mailboxes/mailbox-action-defs";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { type ActionContext, type ActionLedger, runOwnerAction } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { type Mailbox, mailboxes, mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { defaultMailDomain } from "@/lib/mail/domains/mail-domain-name";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { listThreads } from "@/lib/mail/threads/list-threads";
import { seedProject } from "@/lib/testing/seed";

// The Mailboxes screens' owner actions through the real action pipeline (runOwnerAction: parse, one transaction,
// the ledger entry), as the server actions run them, minus the cookie lookup.

async function owner(): Promise<OwnerContext> {
  const s = await seedProject();
  return { owner: s.owner, sessionId: "ses_test", project: s.project, projects: [s.project], actor: s.actor };
}

type Def<S extends z.ZodType, T> = { schema: S; run: (ctx: ActionContext, input: z.output<S>) => Promise<T>; ledger: ActionLedger<z.output<S>> };
const act = <S extends z.ZodType, T>(ctx: OwnerContext, d: Def<S, T>, input: z.input<S>) => runOwnerAction(ctx, d.schema, d.run, d.ledger, input);

const entries = async (projectId: string, op: string) =>
  (await getDb())
    .select({ subject: ledgerEntries.subject, actorType: ledgerEntries.actorType })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, projectId), eq(ledgerEntries.op, op)));

const liveMailboxes = async (projectId: string) =>
  (await getDb())
    .select({ id: mailboxes.id })
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, projectId), eq(mailboxes.isDefault, false)));

async function deliver(mailbox: Mailbox, subject: string) {
  const raw = await new MailComposer({ from: "Ada <ada@example.org>", to: mailbox.address, subject, text: "Hello there" }).compile().build();
  const [stored] = await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [mailbox], remote: "local" });
  const [m] = await (await getDb()).select({ threadId: mailMessages.threadId }).from(mailMessages).where(eq(mailMessages.id, stored.messageId));
  return m.threadId;
}

async function newMailbox(ctx: OwnerContext, username: string): Promise<Mailbox> {
  const res = await act(ctx, createMailboxDef, { username, domain: defaultMailDomain(), displayName: "Support" });
  if (!res.ok) throw new Error(res.error);
  const [row] = await (await getDb()).select().from(mailboxes).where(eq(mailboxes.id, res.data.id));
  return row;
}

describe("New mailbox", () => {
  it("creates on the instance's domain, ledgered as create_inbox with the new mailbox as subject", async () => {
    const ctx = await owner();
    const box = await newMailbox(ctx, "support");
    expect(box).toMatchObject({ projectId: ctx.project.id, localPart: "support", displayName: "Support", deletedAt: null });
    expect(await entries(ctx.project.id, "create.inbox")).toEqual([{ subject: box.id, actorType: "owner" }]);
  });

  it("names the field of a bad username or domain, refuses a taken address, and writes nothing when it refuses", async () => {
    const ctx = await owner();
    await newMailbox(ctx, "sales");
    const domain = defaultMailDomain();
    const before = await liveMailboxes(ctx.project.id);
    for (const username of ["Admin", "a@b", "-x", "x".repeat(65), "postmaster"]) {
      const res = await act(ctx, createMailboxDef, { username, domain });
      expect(res.ok, username).toBe(false);
      if (!res.ok) expect(Object.keys(res.fieldErrors ?? {}), username).toEqual(["username"]);
    }
    const foreign = await act(ctx, createMailboxDef, { username: "help", domain: "gmail.com" });
    expect(foreign).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^gmail\.com is not a domain of this project/),
      fieldErrors: { domain: expect.stringMatching(/^gmail\.com is not a domain of this project/) },
    });
    const taken = await act(ctx, createMailboxDef, { username: "sales", domain });
    expect(taken).toMatchObject({ ok: false, error: expect.stringContaining(`sales@${domain} is taken`) });
    expect(await liveMailboxes(ctx.project.id)).toEqual(before);
    expect(await entries(ctx.project.id, "create.inbox")).toHaveLength(1);
  });
});

describe("Delete mailbox", () => {
  it("soft-deletes it (gone from the list, address free), ledgered as delete_inbox", async () => {
    const ctx = await owner();
    const box = await newMailbox(ctx, "temp");
    const res = await act(ctx, deleteMailboxDef, { inboxId: box.id });
    expect(res).toMatchObject({ ok: true, data: { id: box.id, address: box.address } });
    const [row] = await (await getDb()).select().from(mailboxes).where(eq(mailboxes.id, box.id));
    expect(row.deletedAt).not.toBeNull();
    expect(await entries(ctx.project.id, "delete.inbox")).toEqual([{ subject: box.id, actorType: "owner" }]);
    const other = await owner();
    expect(await act(other, deleteMailboxDef, { inboxId: (await newMailbox(ctx, "kept")).id })).toMatchObject({
      ok: false,
      error: expect.stringContaining("was not found"),
    });
  });
});

describe("Thread actions", () => {
  it("opening marks the thread read, labels follow the agents' rules, trash hides it from the default list", async () => {
    const ctx = await owner();
    const box = await newMailbox(ctx, "inbox");
    const threadId = await deliver(box, "Invoice 42");
    const db = await getDb();
    // Delivered between this instance's mailboxes: normal mail, shown without SPF/DKIM/DMARC badges.
    const ids = (await db.select({ id: mailMessages.id }).from(mailMessages).where(eq(mailMessages.threadId, threadId))).map((m) => m.id);
    expect([...(await localDeliveries(db, ctx.project.id, ids))]).toEqual(ids);
    expect((await localDeliveries(db, (await owner()).project.id, ids)).size).toBe(0);
    expect((await unreadCounts(db, ctx.project.id, [box.id])).get(box.id)).toBe(1);

    expect(await act(ctx, markThreadReadDef, { threadId })).toMatchObject({ ok: true });
    const [thread] = await db.select().from(mailThreads).where(eq(mailThreads.id, threadId));
    expect(thread.labels).not.toContain("unread");
    const msgs = await db.select({ labels: mailMessages.labels }).from(mailMessages).where(eq(mailMessages.threadId, threadId));
    expect(msgs.every((m) => !m.labels.includes("unread"))).toBe(true);
    expect((await unreadCounts(db, ctx.project.id, [box.id])).get(box.id)).toBeUndefined();
    expect(await entries(ctx.project.id, "update.thread")).toEqual([{ subject: threadId, actorType: "owner" }]);

    const labelled = await act(ctx, setThreadLabelsDef, { threadId, addLabels: ["follow-up"], removeLabels: [] });
    expect(labelled).toMatchObject({ ok: true, data: { labels: expect.arrayContaining(["follow-up", "received"]) } });
    const system = await act(ctx, setThreadLabelsDef, { threadId, addLabels: ["sent"], removeLabels: [] });
    expect(system).toMatchObject({ ok: false, fieldErrors: { "addLabels.0": expect.stringContaining("system label") } });
    const invalid = await act(ctx, setThreadLabelsDef, { threadId, addLabels: [], removeLabels: ["UNREAD "] });
    expect(invalid).toMatchObject({ ok: false, fieldErrors: { "removeLabels.0": expect.stringContaining("not a valid label") } });

    const listed = () => listThreads(db, { actor: ctx.actor, filter: { inboxId: box.id }, limit: 10, ascending: false, page: null });
    expect((await listed()).map((t) => t.id)).toEqual([threadId]);
    expect(await act(ctx, trashThreadDef, { threadId })).toMatchObject({ ok: true, data: { labels: expect.arrayContaining(["trash"]) } });
    expect(await listed()).toEqual([]);
    expect(await entries(ctx.project.id, "delete.thread")).toEqual([{ subject: threadId, actorType: "owner" }]);

    // Another project's owner cannot touch it.
    const other = await owner();
    expect(await act(other, trashThreadDef, { threadId })).toMatchObject({ ok: false });
  });
});
