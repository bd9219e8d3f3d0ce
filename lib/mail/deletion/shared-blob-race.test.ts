import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { diskTrash } from "@/lib/db/schema/disk";
import { mailAttachments } from "@/lib/db/schema/mail";
import { deleteMessage } from "@/lib/mail/deletion/delete-message";
import { deleteDraft } from "@/lib/mail/drafts/delete-draft";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { heldOpen } from "@/lib/testing/held-open";
import { untilBlocked } from "@/lib/testing/until-blocked";
import { call, projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";

/**
 * Two forward drafts keep an erased message's attachment by reference; each is deleted by its own call at once (found
 * by helper-112). Each count of the blob's references saw the other's row, deleted but not yet committed, so neither
 * trashed it: once both committed nothing named the bytes and the janitor never erased them. PostgreSQL only: PGlite
 * runs one transaction at a time.
 */
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
let p: Awaited<ReturnType<typeof projectWithKey>>;
beforeAll(async () => {
  p = await projectWithKey("Shared blob race");
});

it.runIf(onPostgres)("two deletes of the last two rows sharing a blob at once trash it exactly once", async () => {
  const box = await seedMailbox(p.project.id);
  const mail = await seedReceivedMail(p.project.id, box.id);
  const db = await getDb();
  const [original] = await db.select({ blobKey: mailAttachments.blobKey }).from(mailAttachments).where(eq(mailAttachments.messageId, mail.message));
  const drafts: string[] = [];
  for (const to of ["x@example.org", "y@example.org"])
    drafts.push((await call(createDraft, p.mcp, { inboxId: box.id, forwardOf: mail.message, to: [to] })).draft_id);
  await db.transaction((tx) => deleteMessage(tx, { actor: p.actor, inboxId: box.id, messageId: mail.message }));
  const trashed = () => db.select().from(diskTrash).where(eq(diskTrash.blobKey, original.blobKey));
  expect(await trashed()).toEqual([]);

  const first = await heldOpen(async (tx) => expect((await deleteDraft(tx, { actor: p.mcp, inboxId: box.id, draftId: drafts[0] })).deleted).toBe(true));
  const second = db.transaction((tx) => deleteDraft(tx, { actor: p.mcp, inboxId: box.id, draftId: drafts[1] }));
  await untilBlocked(second);
  first.commit();
  await first.done;
  expect(await second).toMatchObject({ deleted: true });
  expect(await db.select().from(mailAttachments).where(eq(mailAttachments.blobKey, original.blobKey))).toEqual([]);
  expect(await trashed()).toHaveLength(1);
});
