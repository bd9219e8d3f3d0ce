import { and, count, eq } from "drizzle-orm";
import type { Executor, Tx } from "@/lib/db/client";
import { setStatementTimeout } from "@/lib/db/statement-timeout";
import { takeTurn } from "@/lib/db/turn-lock";
import { events } from "@/lib/db/schema/events";
import { apiKeys } from "@/lib/db/schema/keys";
import { mailboxes } from "@/lib/db/schema/mail";
import { projects } from "@/lib/db/schema/projects";
import { AppError, notFound } from "@/lib/errors";
import { keyCache, sessionCache } from "@/lib/keys/auth-cache";
import { grantTokenCache } from "@/lib/oauth/token-cache";
import { queueProjectErasure } from "@/lib/blob/queue-erasure";
import { lockHead } from "@/lib/ledger/chain-head";

/** The op of deleting a project; its entry goes to the chain of the project the owner lands on. */
export const DELETE_PROJECT_OP = "project.delete";

/** What goes with a project, counted for the confirmation ("3 API keys, 2 mailboxes, 1,204 events"). */
export async function projectFootprint(db: Executor, projectId: string) {
  const n = async (table: typeof apiKeys | typeof mailboxes | typeof events) =>
    Number((await db.select({ n: count() }).from(table).where(eq(table.projectId, projectId)))[0]?.n ?? 0);
  return { keys: await n(apiKeys), mailboxes: await n(mailboxes), events: await n(events) };
}

/**
 * Deletes one of the owner's projects and everything in it: every table's rows hang off the project with ON DELETE
 * CASCADE (keys, sources, channels, policy, events, approvals, disk, mailboxes and their mail, webhooks, ledger).
 * The owner types the project's name to confirm; the check is repeated here so no client can skip it. An owner's
 * last project stays: the dashboard always acts on one. Key auth caches are emptied on commit, so its keys stop
 * at once on every instance. Its bytes in the blob store (files, mail) are queued for the janitor in the same
 * transaction (lib/blob/queue-erasure.ts): nothing is erased unless the rows are gone, and nothing stays behind.
 * `confirmField` is the caller's name for the typed name, for the error (owner REST: `confirm`).
 */
export async function deleteProject(tx: Tx, opts: { ownerId: string; projectId: string; confirmName: string; confirmField?: string }) {
  // The owner's deletes take turns: two at once of the last two projects each found the other still there (each
  // call's entry chained in the other one), and deadlocked on PostgreSQL, or would have left the owner none.
  await takeTurn(tx, `projects:${opts.ownerId}`);
  const owned = await tx.select().from(projects).where(eq(projects.ownerId, opts.ownerId));
  const project = owned.find((p) => p.id === opts.projectId);
  if (!project) throw notFound(`Project ${opts.projectId}`);
  if (opts.confirmName.trim() !== project.name) {
    throw new AppError("validation_error", `Type ${project.name} exactly to confirm.`, {
      details: [{ field: opts.confirmField ?? "confirmName", message: `Type “${project.name}” exactly to confirm.` }],
    });
  }
  if (owned.length === 1) {
    throw new AppError("CONFLICT", "This is your only project; the dashboard needs one.", {
      fix: "Create another project first, then delete this one.",
    });
  }
  // The ledger sealer locks the chain's head, then its entries; the cascade would take them the other way round (a
  // deadlock on PostgreSQL when the project was used a moment ago). Holding the head first queues this behind it.
  await lockHead(tx, project.id);
  // The cascade removes every row the project ever had: long by nature on a big project, so no statement timeout.
  await setStatementTimeout(tx, 0);
  await tx.delete(projects).where(and(eq(projects.id, project.id), eq(projects.ownerId, opts.ownerId)));
  await queueProjectErasure(tx, project.id);
  // Its keys, grants (with their tokens) and MCP sessions went with the cascade: no instance may keep answering them.
  keyCache.invalidate(tx);
  grantTokenCache.invalidate(tx);
  sessionCache.invalidate(tx);
  return { id: project.id, name: project.name };
}
