import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailMessages } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";

const gone = () => new AppError("NOT_FOUND", "This item was deleted.", { fix: "List the inbox's messages again." });

/**
 * The blob key behind a download the call already authorised (REST's respond hook runs after the ledgered call):
 * looked up again by project and id, so blob keys never appear in a tool's output.
 */
export async function attachmentBlob(db: Executor, projectId: string, attachmentId: string): Promise<string> {
  const [row] = await db
    .select({ blobKey: mailAttachments.blobKey })
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, projectId), eq(mailAttachments.id, attachmentId)));
  if (!row) throw gone();
  return row.blobKey;
}

export async function rawMessageBlob(db: Executor, projectId: string, messageId: string): Promise<string> {
  const [row] = await db
    .select({ rawBlobKey: mailMessages.rawBlobKey })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, messageId)));
  if (!row?.rawBlobKey) throw gone();
  return row.rawBlobKey;
}
