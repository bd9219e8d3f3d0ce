import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailMessages, mailThreads, messageColumns } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { createKey } from "@/lib/keys/create-key";
import { keyActor } from "@/lib/keys/key-actor";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { rawMail } from "@/lib/testing/mail-fixture";
import type { seedProject } from "@/lib/testing/seed";
import { type AnyTool, runTool } from "@/lib/tools/run-tool";

/** Helpers shared by the label, attachment and REST-only tests: actors as the adapters build them, rows, errors. */

export type Seeded = Awaited<ReturnType<typeof seedProject>>;

/** The seeded key's actor as an adapter builds it: `mcp` callers write camelCase, `rest` callers snake_case. */
export const actorVia = (seeded: Seeded, via: "mcp" | "rest"): Actor => keyActor({ ...seeded.key, projectName: seeded.project.name }, new Headers(), via, null);

/** Another key of the project with these scopes, optionally restricted to one mailbox; its actor and secret. */
export async function otherKey(seeded: Seeded, scopes: string[], mailboxId?: string) {
  const db = await getDb();
  const made = await createKey(db, {
    actor: await ownerActor(db, seeded.owner, seeded.project.id, "dashboard"),
    name: `key ${scopes.length}`,
    scopes,
    mailbox_id: mailboxId ?? null,
  });
  return { ...made, actor: (via: "mcp" | "rest") => keyActor({ ...made.key, projectName: seeded.project.name }, new Headers(), via, null) };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read results of many shapes
type Output = Record<string, any>;

export const call = async (tool: AnyTool, actor: Actor, args: unknown) => (await runTool(tool, actor, args, new AbortController().signal)).output as Output;

/** The AppError a call fails with (fails the test when it succeeds). */
export async function refusal(tool: AnyTool, actor: Actor, args: unknown): Promise<AppError> {
  try {
    await runTool(tool, actor, args, new AbortController().signal);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error(`${tool.name} accepted ${JSON.stringify(args)}`);
}

export async function threadRow(projectId: string, threadId: string) {
  const [row] = await (await getDb())
    .select()
    .from(mailThreads)
    .where(and(eq(mailThreads.projectId, projectId), eq(mailThreads.id, threadId)));
  return row;
}

export async function messagesOf(projectId: string, threadId: string) {
  return (await getDb())
    .select(messageColumns)
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.threadId, threadId)))
    .orderBy(mailMessages.msgAt);
}

/** A reply in the same thread (same base subject, In-Reply-To the given message), received locally. */
export async function receiveReply(projectId: string, mailboxId: string, parentId: string, text = "Thanks, got them.") {
  const db = await getDb();
  const [parent] = await db
    .select(messageColumns)
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, parentId)));
  const [mailbox] = await db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId));
  const raw = await rawMail({
    from: "Bob <bob@example.org>",
    to: mailbox.address,
    subject: `Re: ${parent.subject}`,
    text,
    inReplyTo: `<${parent.rfcMessageId}>`,
    references: [`<${parent.rfcMessageId}>`],
    attachments: [{ filename: "notes.txt", content: "reply notes" }],
  });
  const [stored] = await receiveMessage(raw, { mailFrom: "bob@example.org", recipients: [mailbox], remote: "local" });
  return stored.messageId;
}
