import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { PageKey } from "@/lib/db/keyset";
import { fieldError } from "@/lib/disk/field-error";
import { pageLimit } from "@/lib/tools/fields";
import { encodePageToken, PAGE_TOKEN_MAX, type PageBinding, readPageToken } from "@/lib/tools/page-token";

/**
 * Keyset paging for the owner's quarantine and rejection lists (REST and the screens' URLs), with the mailbox
 * family's signed page tokens: a token is good for one list, one project and one filter, newest first.
 */
interface OwnerPaged {
  limit: number;
  page_token?: string;
}

type Project = Pick<Actor, "projectId">;

const binding = (list: string, actor: Project, input: object): PageBinding => {
  const { limit: _limit, page_token: _token, ...filter } = input as OwnerPaged;
  return { tool: list, project: actor.projectId, filter, ascending: false };
};

/** A list's input: its filters plus `limit` (1–100, default 50) and `page_token`, which ownerPageAfter checks. */
export function ownerListInput<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, limit: pageLimit(100, 50), page_token: z.string().min(1).max(PAGE_TOKEN_MAX).optional() }).strict();
}

/** The key a screen's page token carries, or why it does not fit this list, project and filter; null for none. */
export function ownerPageRead(list: string, actor: Project, input: OwnerPaged): ReturnType<typeof readPageToken> | null {
  return input.page_token === undefined ? null : readPageToken(input.page_token, binding(list, actor, input));
}

/** Where an owner REST page starts; a token from another list, project or filter is a validation_error. */
export function ownerPageAfter(list: string, actor: Project, input: OwnerPaged): PageKey | null {
  const read = ownerPageRead(list, actor, input);
  if (read && "problem" in read)
    throw fieldError("page_token", read.problem, "Pass next_page_token back unchanged with the same other parameters, or omit page_token.");
  return read?.key ?? null;
}

/** The page of rows fetched with `limit + 1`, and the token of the next one. */
export function ownerPageOf<R>(list: string, actor: Project, input: OwnerPaged, rows: R[], keyOf: (row: R) => PageKey) {
  const items = rows.slice(0, input.limit);
  const last = items[items.length - 1];
  return { items, nextPageToken: rows.length > input.limit && last ? encodePageToken(keyOf(last), binding(list, actor, input)) : null };
}
