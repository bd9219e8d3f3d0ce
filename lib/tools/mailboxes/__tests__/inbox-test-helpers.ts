import { and, count, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Actor } from "@/lib/actor";
import { getDb } from "@/lib/db/client";
import type { ApiKey } from "@/lib/db/schema/keys";
import { mailboxes, mailListEntries } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { createKey } from "@/lib/keys/create-key";
import { keyActor } from "@/lib/keys/key-actor";
import { allScopes } from "@/lib/keys/scopes";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { seedOwner, seedProject } from "@/lib/testing/seed";
import { type AnyTool, runTool } from "@/lib/tools/run-tool";

/** The actor an adapter builds for a key, over MCP (camelCase arguments) or REST (snake_case). */
export const actorOf = (key: ApiKey, projectName: string, via: "mcp" | "rest"): Actor => keyActor({ ...key, projectName }, new Headers(), via, null);

/** A project with an unrestricted key holding every scope, and its two actors. */
export async function projectWithKey(name = "Inbox tools") {
  const seeded = await seedProject({ name });
  return { ...seeded, mcp: actorOf(seeded.key, seeded.project.name, "mcp"), rest: actorOf(seeded.key, seeded.project.name, "rest") };
}

/** Another key of the project restricted to one mailbox (as the API keys screen makes it). */
export async function restrictedKey(projectId: string, projectName: string, mailboxId: string, scopes: string[] = [...allScopes]) {
  const db = await getDb();
  const owner = await seedOwner();
  const { key } = await db.transaction(async (tx) =>
    createKey(tx, { actor: await ownerActor(tx, owner, projectId, "dashboard"), name: "restricted", scopes, mailbox_id: mailboxId }),
  );
  return { key, mcp: actorOf(key, projectName, "mcp"), rest: actorOf(key, projectName, "rest") };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read results field by field, as a caller's JSON
type Json = Record<string, any>;

/** The caller-cased result of a call that must succeed. */
export async function call(tool: AnyTool, actor: Actor, args: unknown): Promise<Json> {
  return (await runTool(tool, actor, args, new AbortController().signal)).output as Json;
}

/** The AppError of a call that must be refused. */
export async function refusal(tool: AnyTool, actor: Actor, args: unknown): Promise<AppError> {
  try {
    await runTool(tool, actor, args, new AbortController().signal);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error(`${tool.name} accepted ${JSON.stringify(args)}`);
}

/** The fields a validation_error names, in the caller's casing. */
export async function refusedFields(tool: AnyTool, actor: Actor, args: unknown): Promise<string[]> {
  const err = await refusal(tool, actor, args);
  expect(err.code).toBe("validation_error");
  return (err.details as Array<{ field: string }>).map((d) => d.field);
}

/** Rows that a refused call must not have touched. */
export async function snapshot(projectId: string) {
  const db = await getDb();
  const boxes = await db.select().from(mailboxes).where(eq(mailboxes.projectId, projectId)).orderBy(mailboxes.id);
  const [entries] = await db
    .select({ n: count() })
    .from(mailListEntries)
    .where(and(eq(mailListEntries.projectId, projectId)));
  return { boxes, entries: entries.n };
}
