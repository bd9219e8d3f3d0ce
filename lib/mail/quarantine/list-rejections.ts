import { and, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailRejections } from "@/lib/db/schema/mail-events";

/** `_` and `%` are LIKE wildcards: a search for `a_b` means those characters. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The Rejected mail log: SMTP-time refusals that named one of the project's addresses, newest first. `q` finds an
 * address (or part of one) in MAIL FROM or RCPT, the way an owner asks "why did mail from X not arrive".
 */
export async function listRejections(db: Executor, opts: { actor: Actor; q?: string; mailboxId?: string | null; limit: number; after: PageKey | null }) {
  const r = mailRejections;
  const where: (SQL | undefined)[] = [eq(r.projectId, opts.actor.projectId)];
  if (opts.mailboxId) where.push(eq(r.mailboxId, opts.mailboxId));
  if (opts.q) {
    const q = `%${likeEscape(opts.q.toLowerCase())}%`;
    where.push(or(ilike(r.mailFrom, q), ilike(r.rcpt, q)));
  }
  if (opts.after) where.push(keysetAfter(r.at, r.id, opts.after, false));
  return db
    .select({
      id: r.id,
      mailboxId: r.mailboxId,
      remoteIp: r.remoteIp,
      helo: r.helo,
      mailFrom: r.mailFrom,
      rcpt: r.rcpt,
      smtpCode: r.smtpCode,
      reason: r.reason,
      at: r.at,
      pageAt: keysetAt(r.at),
    })
    .from(r)
    .where(and(...where))
    .orderBy(...keysetOrder(r.at, r.id, false))
    .limit(opts.limit);
}
export type RejectionRow = Awaited<ReturnType<typeof listRejections>>[number];
