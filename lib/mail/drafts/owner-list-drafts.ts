import { and, count, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailAttachments, mailboxes } from "@/lib/db/schema/mail";
import { type MailDraft, mailDrafts } from "@/lib/db/schema/mail-send";

/** The Drafts screen's tabs: what needs the owner, what waits for its time, what stopped, everything. */
export const draftTabs = ["approval", "scheduled", "failed", "all"] as const;
export type DraftTab = (typeof draftTabs)[number];

const tabWhere: Record<DraftTab, SQL | undefined> = {
  approval: eq(mailDrafts.sendStatus, "pending_approval"),
  scheduled: eq(mailDrafts.sendStatus, "scheduled"),
  failed: inArray(mailDrafts.sendStatus, ["failed", "rejected"]),
  all: undefined,
};

export type OwnerDraftRow = MailDraft & {
  mailboxAddress: string;
  pageAt: string;
  files: Array<{ id: string; name: string; sizeBytes: number; contentType: string }>;
};

/**
 * Every mailbox's drafts for the owner (design §4 B "Drafts"), newest change first, a page at a time: the cursor is
 * the last row's keyset key (`updated_at` as Postgres prints it, and id). Attachments come with each row, since the approval view shows names and sizes.
 */
export async function ownerListDrafts(db: Executor, o: { projectId: string; tab: DraftTab; limit: number; after?: PageKey | null }): Promise<OwnerDraftRow[]> {
  const where = [eq(mailDrafts.projectId, o.projectId), isNull(mailboxes.deletedAt), tabWhere[o.tab]];
  if (o.after) where.push(keysetAfter(mailDrafts.updatedAt, mailDrafts.id, o.after, false));
  const rows = await db
    .select({ draft: mailDrafts, mailboxAddress: mailboxes.address, pageAt: keysetAt(mailDrafts.updatedAt) })
    .from(mailDrafts)
    .innerJoin(mailboxes, and(eq(mailboxes.projectId, mailDrafts.projectId), eq(mailboxes.id, mailDrafts.mailboxId)))
    .where(and(...where))
    .orderBy(...keysetOrder(mailDrafts.updatedAt, mailDrafts.id, false))
    .limit(o.limit);
  const files = await draftFiles(
    db,
    o.projectId,
    rows.map((r) => r.draft.id),
  );
  return rows.map((r) => ({ ...r.draft, mailboxAddress: r.mailboxAddress, pageAt: r.pageAt, files: files.get(r.draft.id) ?? [] }));
}

/** One draft of the project with its mailbox address and files, or null. */
export async function ownerGetDraft(db: Executor, o: { projectId: string; draftId: string }): Promise<OwnerDraftRow | null> {
  const [row] = await db
    .select({ draft: mailDrafts, mailboxAddress: mailboxes.address, pageAt: keysetAt(mailDrafts.updatedAt) })
    .from(mailDrafts)
    .innerJoin(mailboxes, and(eq(mailboxes.projectId, mailDrafts.projectId), eq(mailboxes.id, mailDrafts.mailboxId)))
    .where(and(eq(mailDrafts.projectId, o.projectId), eq(mailDrafts.id, o.draftId)));
  if (!row) return null;
  const files = await draftFiles(db, o.projectId, [row.draft.id]);
  return { ...row.draft, mailboxAddress: row.mailboxAddress, pageAt: row.pageAt, files: files.get(row.draft.id) ?? [] };
}

/** How many drafts wait for the owner's approval: the navigation's badge. */
export async function countDraftsAwaitingApproval(db: Executor, projectId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mailDrafts)
    .where(and(eq(mailDrafts.projectId, projectId), eq(mailDrafts.sendStatus, "pending_approval")));
  return row?.n ?? 0;
}

async function draftFiles(db: Executor, projectId: string, ids: string[]) {
  const out = new Map<string, OwnerDraftRow["files"]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      id: mailAttachments.id,
      draftId: mailAttachments.draftId,
      name: mailAttachments.name,
      sizeBytes: mailAttachments.sizeBytes,
      contentType: mailAttachments.contentType,
    })
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, projectId), inArray(mailAttachments.draftId, ids)));
  for (const r of rows) {
    if (!r.draftId) continue;
    out.set(r.draftId, [...(out.get(r.draftId) ?? []), { id: r.id, name: r.name, sizeBytes: r.sizeBytes, contentType: r.contentType }]);
  }
  return out;
}
