import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { diskTrash } from "@/lib/db/schema/disk";
import { mailAttachments } from "@/lib/db/schema/mail";
import { deleteMessage } from "@/lib/mail/deletion/delete-message";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { createDraft as createDraftOf } from "@/lib/mail/drafts/create-draft";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { runTool } from "@/lib/tools/run-tool";
import { untilBlocked } from "@/lib/testing/until-blocked";
import { projectWithKey } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * Blob reference counting is a NOT EXISTS read (unreferencedBlobs) in the erasing transaction. A forward made at the
 * same time keeps the original's attachment by blob (no copy) in a new mail_attachments row the erase cannot see yet.
 * Before, nothing conflicted (no foreign key to the original): the erase put the blob in disk_trash, the janitor
 * deleted it 15 minutes later, and the forward draft (and the message sent from it) pointed at bytes that were gone.
 * PostgreSQL only (PGlite runs one transaction at a time).
 */
const pg = (process.env.DATABASE_URL ?? "").startsWith("postgres");
let p: Awaited<ReturnType<typeof projectWithKey>>;
beforeAll(async () => {
  p = await projectWithKey("Erase vs forward race");
});

describe.runIf(pg)("REST delete of a message racing a forward of it", () => {
  it("never trashes a blob that a committed row still references", async () => {
    const box = await seedMailbox(p.project.id);
    const mail = await seedReceivedMail(p.project.id, box.id);
    const db = await getDb();
    const originalBlobs = (await db.select({ blobKey: mailAttachments.blobKey }).from(mailAttachments).where(eq(mailAttachments.messageId, mail.message))).map(
      (a) => a.blobKey,
    );
    expect(originalBlobs.length).toBeGreaterThan(0);

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let erased!: () => void;
    const eraseDone = new Promise<void>((r) => (erased = r));
    // 1. The erase runs up to its commit: rows deleted, unreferenced blobs put in the trash.
    const erasing = db.transaction(async (tx) => {
      const out = await deleteMessage(tx, { actor: p.actor, inboxId: box.id, messageId: mail.message });
      expect(out.deleted).toBe(true);
      erased();
      await gate;
    });
    await eraseDone;
    // 2. Meanwhile an agent forwards it (a draft keeping the attachment by blob).
    const forwarding = runTool(createDraft, p.mcp, { inboxId: box.id, forwardOf: mail.message, to: ["x@example.org"] }, new AbortController().signal).then(
      (r) => r.output as { draft_id: string },
      (e: unknown) => e,
    );
    await untilBlocked(forwarding);
    release();
    await erasing;
    // The forward waited for the erase, and then found no original.
    const draft = await forwarding;
    expect(draft).toMatchObject({ code: "NOT_FOUND" });
    // Nothing points at the original's bytes, which the erase trashed.
    expect(await db.select().from(mailAttachments).where(inArray(mailAttachments.blobKey, originalBlobs))).toEqual([]);
    expect((await db.select().from(diskTrash).where(inArray(diskTrash.blobKey, originalBlobs))).length).toBe(originalBlobs.length);
  });

  it("leaves the blobs a forward committed first keeps out of the trash", async () => {
    const box = await seedMailbox(p.project.id);
    const mail = await seedReceivedMail(p.project.id, box.id);
    const db = await getDb();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let forwarded!: () => void;
    const forwardDone = new Promise<void>((r) => (forwarded = r));
    // 1. The forward runs up to its commit, keeping the attachments by blob.
    let draftId = "";
    const forwarding = db.transaction(async (tx) => {
      const { draft } = await createDraftOf(tx, { actor: p.mcp, input: { inboxId: box.id, forwardOf: mail.message, to: ["x@example.org"] } });
      draftId = draft.id;
      forwarded();
      await gate;
    });
    await forwardDone;
    // 2. Meanwhile the owner erases the original: it waits for the forward, then sees its rows.
    const erasing = db.transaction((tx) => deleteMessage(tx, { actor: p.actor, inboxId: box.id, messageId: mail.message }));
    await new Promise((r) => setTimeout(r, 200));
    release();
    await forwarding;
    expect(await erasing).toMatchObject({ deleted: true });
    const draft = { draft_id: draftId };

    const kept = await db
      .select({ blobKey: mailAttachments.blobKey })
      .from(mailAttachments)
      .where(and(eq(mailAttachments.projectId, p.project.id), eq(mailAttachments.draftId, draft.draft_id)));
    expect(kept.length).toBeGreaterThan(0);
    const trashed = await db
      .select({ blobKey: diskTrash.blobKey })
      .from(diskTrash)
      .where(
        inArray(
          diskTrash.blobKey,
          kept.map((k) => k.blobKey),
        ),
      );
    expect(trashed).toEqual([]);
  });
});
