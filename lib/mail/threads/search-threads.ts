import { and, desc, eq, getTableColumns, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, type PageKey } from "@/lib/db/keyset";
import { mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { readInScope } from "@/lib/mail/messages/mail-scope";
import { type MailScope, scopeCondition } from "@/lib/mail/messages/match-filters";
import { searchMatch } from "@/lib/mail/messages/search-match";
import { threadView } from "@/lib/mail/threads/thread-view";

/** How many of the newest matching messages one search_threads call considers (design §2.7). */
export const THREAD_SEARCH_CANDIDATES = 1000;

/**
 * Threads with a message matching `q`, by their newest match, newest first; the page key is that match's time
 * and the thread id. One statement: the newest 1,000 matching messages (the same bounded walk as search_messages),
 * DISTINCT ON thread, then the thread rows. A later page takes its candidates from before the previous page's key
 * and drops a thread whose newest match lies after it (it was on an earlier page).
 *
 * `resume` is set when the page holds fewer than `limit` threads because the 1,000 matches ran out, not the threads
 * (a conversation of 1,001 matching messages filled it): the walk goes on from the window's oldest match, with the
 * empty id, so that every thread matched at or after it counts as shown. Without it, a null next_page_token told
 * the caller it had every conversation while older ones matched. (A thread whose only match shares the window's last
 * microsecond but fell past the 1,000th is the one it can still skip.)
 */
export async function searchThreads(
  db: Executor,
  opts: { actor: Actor; inboxId?: string; q: string; before?: Date; after?: Date; limit: number; page: PageKey | null },
): Promise<{ rows: Array<{ pageAt: string; id: string; view: ReturnType<typeof threadView> }>; resume: PageKey | null }> {
  // Set inside the read, which returns only rows (readInScope checks the inbox when there are none).
  let resume: PageKey | null = null;
  const rows = await readInScope(db, opts.actor, opts.inboxId, async (scope) => {
    // A small window first. It decides the page when it holds every match (fewer than it could), or when it
    // holds `limit` threads whose newest match is later than its oldest (a thread not seen in it has its newest
    // match at or before that one). A page then reads a few dozen matches instead of 1,000; otherwise the full
    // window decides, as before.
    const window = Math.min(THREAD_SEARCH_CANDIDATES, opts.limit * FIRST_WINDOW_PER_THREAD);
    const first = await threadSearchQuery(db, { ...opts, scope, candidates: window });
    const decided = window === THREAD_SEARCH_CANDIDATES || (first[0] && first[0].inWindow < window) || first[opts.limit - 1]?.aboveFloor;
    const found = decided ? first : await threadSearchQuery(db, { ...opts, scope, candidates: THREAD_SEARCH_CANDIDATES });
    if (found.length < opts.limit) {
      const floor = await fullWindowFloor(db, { ...opts, scope });
      resume = floor === null ? null : { at: floor, id: "" };
    }
    return found;
  });
  return { rows: rows.map((r) => ({ pageAt: r.pageAt, id: r.id, view: threadView(r) })), resume };
}

/**
 * The oldest of the page's 1,000 candidate matches when there were 1,000 (older ones may follow), else null. Read
 * apart from the page's statement, which returns no window figures when every thread in it was shown before.
 */
async function fullWindowFloor(db: Executor, opts: { actor: Actor; scope: MailScope; q: string; before?: Date; after?: Date; page: PageKey | null }) {
  const hits = candidateMatches(db, opts, THREAD_SEARCH_CANDIDATES).as("hits");
  const [w] = await db.select({ n: sql<number>`count(*)::int`, floor: sql<string | null>`min(${hits.msgAt})::text` }).from(hits);
  return w && w.n >= THREAD_SEARCH_CANDIDATES ? w.floor : null;
}

/** A page's candidates: the newest `limit` matching messages at or before the previous page's key. */
function candidateMatches(db: Executor, opts: { scope: MailScope; q: string; before?: Date; after?: Date; page: PageKey | null }, limit: number) {
  const m = mailMessages;
  return db
    .select({ threadId: m.threadId, msgAt: m.msgAt })
    .from(m)
    .where(and(scopeCondition(m, opts.scope), ...searchMatch(opts.q, opts), opts.page ? sql`${m.msgAt} <= ${opts.page.at}::timestamptz` : undefined))
    .orderBy(desc(m.msgAt), desc(m.id))
    .limit(limit);
}

/** The first window's matches per thread asked for: a conversation rarely holds more than a few matching messages. */
const FIRST_WINDOW_PER_THREAD = 8;

function threadSearchQuery(
  db: Executor,
  opts: { actor: Actor; scope: MailScope; q: string; before?: Date; after?: Date; limit: number; page: PageKey | null; candidates: number },
) {
  const m = mailMessages;
  const t = mailThreads;
  const match = searchMatch(opts.q, opts);
  const page = opts.page;
  const hits = candidateMatches(db, opts, opts.candidates).as("hits");
  const best = db
    .selectDistinctOn([hits.threadId], {
      threadId: hits.threadId,
      msgAt: hits.msgAt,
      // Over the whole window (window functions run before DISTINCT ON): its oldest match.
      aboveFloor: sql<boolean>`${hits.msgAt} > min(${hits.msgAt}) over ()`.as("above_floor"),
      inWindow: sql<number>`(count(*) over ())::int`.as("in_window"),
    })
    .from(hits)
    .orderBy(hits.threadId, desc(hits.msgAt))
    .as("best");
  const at = best.msgAt as unknown as AnyColumn;
  const id = best.threadId as unknown as AnyColumn;
  const where: (SQL | undefined)[] = [eq(t.projectId, opts.actor.projectId)];
  if (page) {
    where.push(keysetAfter(at, id, page, false));
    where.push(
      sql`not exists (select 1 from ${m} where ${m.threadId} = ${best.threadId} and ${m.projectId} = ${opts.actor.projectId} and ${and(...match)} and (${m.msgAt}, ${m.threadId}) >= (${page.at}::timestamptz, ${page.id}))`,
    );
  }
  return db
    .select({ ...getTableColumns(t), pageAt: keysetAt(at), aboveFloor: best.aboveFloor, inWindow: best.inWindow })
    .from(best)
    .innerJoin(t, eq(t.id, best.threadId))
    .where(and(...where))
    .orderBy(desc(best.msgAt), desc(best.threadId))
    .limit(opts.limit);
}
