import { and, asc, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import type { Project } from "@/lib/db/schema/projects";

/** What the consent page offers for each of the owner's projects: its live mailboxes, for the optional restriction. */
export async function consentChoices(db: Executor, projects: readonly Project[]) {
  const ids = projects.map((p) => p.id);
  const boxes = ids.length
    ? await db
        .select({ id: mailboxes.id, address: mailboxes.address, projectId: mailboxes.projectId })
        .from(mailboxes)
        .where(and(inArray(mailboxes.projectId, ids), isNull(mailboxes.deletedAt)))
        .orderBy(asc(mailboxes.address))
    : [];
  return projects.map((p) => ({ id: p.id, name: p.name, mailboxes: boxes.filter((b) => b.projectId === p.id) }));
}
