import { z } from "zod";
import type { PageKey } from "@/lib/db/keyset";
import { pageLimit } from "@/lib/tools/fields";
import { encodePageToken, PAGE_TOKEN_MAX, type PageBinding, readPageToken } from "@/lib/tools/page-token";

/**
 * Keyset paging for the owner's quarantine and rejection lists (REST and the screens' URLs), with the mailbox
 * family's signed page tokens: a token is good for one list and one filter, newest first.
 */
interface OwnerPaged {
  limit: number;
  page_token?: string;
}

const binding = (list: string, input: object): PageBinding => {
  const { limit: _limit, page_token: _token, ...filter } = input as OwnerPaged;
  return { tool: list, filter, ascending: false };
};

/** A list's input: its filters plus `limit` (1–100, default 50) and `page_token`, checked against the filters. */
export function ownerListInput<S extends z.ZodRawShape>(list: string, shape: S) {
  return z
    .object({ ...shape, limit: pageLimit(100, 50), page_token: z.string().min(1).max(PAGE_TOKEN_MAX).optional() })
    .strict()
    .superRefine(
      (input, ctx) => {
        const token = (input as OwnerPaged).page_token;
        if (token === undefined) return;
        const read = readPageToken(token, binding(list, input));
        if ("problem" in read) ctx.addIssue({ code: "custom", path: ["page_token"], message: read.problem, input: token });
      },
      { when: (payload) => payload.issues.length === 0 },
    );
}

/** Where the page starts; the input's schema has checked the token already. */
export function ownerPageAfter(list: string, input: OwnerPaged): PageKey | null {
  if (input.page_token === undefined) return null;
  const read = readPageToken(input.page_token, binding(list, input));
  return "key" in read ? read.key : null;
}

/** The page of rows fetched with `limit + 1`, and the token of the next one. */
export function ownerPageOf<R>(list: string, input: OwnerPaged, rows: R[], keyOf: (row: R) => PageKey) {
  const items = rows.slice(0, input.limit);
  const last = items[items.length - 1];
  return { items, nextPageToken: rows.length > input.limit && last ? encodePageToken(keyOf(last), binding(list, input)) : null };
}
