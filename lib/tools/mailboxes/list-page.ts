import type { Actor } from "@/lib/actor";
import type { PageKey } from "@/lib/db/keyset";
import { includeFlagFields } from "@/lib/tools/mailboxes/label-filter";
import { decodePageToken, encodePageToken, type PageBinding } from "@/lib/tools/page-token";

/** Who pages: the project, and the mailbox a restricted key is held to (its lists are a narrower walk). */
type PageActor = Pick<Actor, "projectId"> & Partial<Pick<Actor, "mailboxId">>;

interface PagedInput {
  limit: number;
  pageToken?: string;
  ascending?: boolean;
}

/** Every argument but the paging ones is the filter, so no tool can forget to bind one of its filters to the token. */
export function pageBinding(tool: string, actor: PageActor, input: object): PageBinding {
  const { limit: _limit, pageToken: _token, ascending, ...filter } = input as PagedInput;
  // An include flag given as false is the filter without it: a client that spelt the default out on page 2
  // (include_spam=false) was refused its own token (found by helper-99).
  for (const flag of INCLUDE_FLAGS) if ((filter as Record<string, unknown>)[flag] === false) delete (filter as Record<string, unknown>)[flag];
  return { tool, project: actor.projectId, mailbox: actor.mailboxId, filter, ascending: ascending === true };
}

const INCLUDE_FLAGS = Object.keys(includeFlagFields);

/**
 * Where this page starts: null for the first page. The token is checked here, against the caller's project as well
 * as the other arguments, which parsing cannot see; a handler calls this before it reads anything, so a bad token is
 * refused first, as a validation_error naming `pageToken` (`page_token` over REST, by callerCasedError).
 */
export const pageAfter = (tool: string, actor: PageActor, input: PagedInput): PageKey | null =>
  input.pageToken === undefined ? null : decodePageToken(input.pageToken, pageBinding(tool, actor, input));

/**
 * A page from rows fetched with `limit + 1`: the extra row only says that another page follows. `resume` is where
 * a list that read a bounded window goes on when the window ran out before the extra row (search_threads).
 */
export function pageOf<R>(
  tool: string,
  actor: PageActor,
  input: PagedInput,
  rows: R[],
  keyOf: (row: R) => PageKey,
  resume: PageKey | null = null,
): { items: R[]; next_page_token: string | null } {
  const items = rows.slice(0, input.limit);
  const last = items[items.length - 1];
  const next = rows.length > input.limit && last !== undefined ? keyOf(last) : resume;
  return { items, next_page_token: next ? encodePageToken(next, pageBinding(tool, actor, input)) : null };
}

/**
 * A list tool's page from rows that carry their sort key (`pageAt`, `id`), fetched with `limit + 1`: the items, and
 * the fields every list result starts with (`count`, `limit`, `nextPageToken`).
 */
export function pageOfRows<R extends { pageAt: string; id: string }>(
  tool: string,
  actor: PageActor,
  input: PagedInput,
  rows: R[],
  resume: PageKey | null = null,
) {
  const page = pageOf(tool, actor, input, rows, (r) => ({ at: r.pageAt, id: r.id }), resume);
  return { items: page.items, head: { count: page.items.length, limit: input.limit, nextPageToken: page.next_page_token } };
}
