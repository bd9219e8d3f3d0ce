import { isTimestampText } from "@/lib/db/keyset";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages, type MessageStatus } from "@/lib/db/schema/mail";

export const outboundStatuses = [
  "queued",
  "sending",
  "sent",
  "failed",
  "bounced",
  "unknown",
  "pending",
  "cancelled",
] as const satisfies readonly MessageStatus[];

/**
 * The last row's exact `created_at` (as Postgres prints it: microseconds, which a JS Date would drop) and id.
 * A batch's messages share one `created_at`, so anything coarser would skip rows at a page boundary.
 */
const encode = (r: { at: string; id: string }) => Buffer.from(`${r.at}|${r.id}`).toString("base64url");
function decode(cursor: string | undefined): { at: string; id: string } | null {
  const m = cursor
    ? Buffer.from(cursor, "base64url")
        .toString("utf8")
        .match(/^([0-9 :.+-]{19,40})\|(msg_[A-Za-z0-9]{1,40})$/)
    : null;
  return m && isTimestampText(m[1]) ? { at: m[1], id: m[2] } : null;
}

/** The Outbound mail screen: the project's sent mail, newest first, with status, attempts and last error. */
export async function listOutbound(db: Executor, opts: { projectId: string; status?: MessageStatus; cursor?: string; limit?: number }) {
  const limit = Math.min(opts.limit ?? 50, 200);
  const after = decode(opts.cursor);
  const where: SQL[] = [eq(mailMessages.projectId, opts.projectId), eq(mailMessages.direction, "outbound")];
  if (opts.status) where.push(eq(mailMessages.status, opts.status));
  if (after) where.push(sql`(${mailMessages.createdAt}, ${mailMessages.id}) < (${after.at}::timestamptz, ${after.id})`);
  const rows = await db
    .select({
      id: mailMessages.id,
      to: mailMessages.to,
      from: mailMessages.fromAddress,
      subject: mailMessages.subject,
      status: mailMessages.status,
      attempts: mailMessages.attempts,
      lastError: mailMessages.lastError,
      response: mailMessages.deliveryResponse,
      agent: mailMessages.agent,
      batchId: mailMessages.batchId,
      createdAt: mailMessages.createdAt,
      sentAt: mailMessages.sentAt,
      updatedAt: mailMessages.updatedAt,
      at: sql<string>`${mailMessages.createdAt}::text`,
    })
    .from(mailMessages)
    .where(and(...where))
    .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
    .limit(limit + 1);
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  return { items, nextCursor: more ? encode(items[items.length - 1]) : null };
}
export type OutboundRow = Awaited<ReturnType<typeof listOutbound>>["items"][number];
