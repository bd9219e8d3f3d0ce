import { and, sql, type SQL } from "drizzle-orm";
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder } from "@/lib/db/keyset";
import { AppError } from "@/lib/errors";
import { afterField, ascendingField, beforeField, listInput } from "@/lib/tools/mailboxes/list-fields";
import { pageAfter, pageOf } from "@/lib/tools/mailboxes/list-page";
import { parseOrThrow } from "@/lib/validation";

const TOOL = "list_probes";
const input = listInput({
  inboxId: z.string().optional(),
  labels: z.array(z.string()).default([]),
  ascending: ascendingField,
  before: beforeField,
  after: afterField,
});
type Input = z.output<typeof input>;

const mine = { projectId: "prj_mine" };
const theirs = { projectId: "prj_theirs" };

/**
 * Parses as runTool does for MCP, then reads the page token as a handler does (its project is the caller's);
 * returns the validation_error's details when refused.
 */
function refused(args: unknown, o: { schema?: z.ZodType; tool?: string; actor?: typeof mine } = {}) {
  try {
    const parsed = parseOrThrow(o.schema ?? input, args) as Input;
    pageAfter(o.tool ?? TOOL, o.actor ?? mine, parsed);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("validation_error");
    return (e as AppError).details as { field: string; message: string }[];
  }
  throw new Error(`accepted ${JSON.stringify(args)}`);
}

// Rows share timestamps and differ by single microseconds, which a JS Date cannot tell apart.
const probes = pgTable("keyset_probes", {
  id: text("id").primaryKey(),
  label: text("label").notNull(),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
});
const rows = Array.from({ length: 23 }, (_, i) => ({
  id: `prb_${String((i * 7) % 23).padStart(2, "0")}`,
  label: i % 3 ? "keep" : "other",
  at: `2026-12-01 10:00:00.12345${i % 4}+00`,
}));

beforeAll(async () => {
  const db = await getDb();
  await db.execute(sql`create table keyset_probes (id text primary key, label text not null, at timestamptz not null)`);
  for (const r of rows) await db.execute(sql`insert into keyset_probes (id, label, at) values (${r.id}, ${r.label}, ${r.at}::timestamptz)`);
});

/** One call of a list tool built from the pieces: parse, keyset after the token, limit + 1, page. */
async function call(args: Record<string, unknown>) {
  const db = await getDb();
  const parsed: Input = parseOrThrow(input, args);
  const where: SQL[] = [sql`${probes.label} = 'keep'`];
  const after = pageAfter(TOOL, mine, parsed);
  if (after) where.push(keysetAfter(probes.at, probes.id, after, parsed.ascending));
  const found = await db
    .select({ id: probes.id, at: keysetAt(probes.at) })
    .from(probes)
    .where(and(...where))
    .orderBy(...keysetOrder(probes.at, probes.id, parsed.ascending))
    .limit(parsed.limit + 1);
  return pageOf(TOOL, mine, parsed, found, (r) => r);
}

async function walk(args: Record<string, unknown>) {
  const seen: string[] = [];
  let token: string | null = null;
  do {
    // A key coarser than the column (a JS Date's milliseconds) would repeat rows forever instead of ending.
    if (seen.length > rows.length) throw new Error(`paging does not end: ${seen.join(" ")}`);
    const page: Awaited<ReturnType<typeof call>> = await call({ ...args, ...(token ? { pageToken: token } : {}) });
    expect(page.items.length).toBeLessThanOrEqual((args.limit as number | undefined) ?? 10);
    seen.push(...page.items.map((r) => r.id));
    token = page.next_page_token;
  } while (token);
  return seen;
}

const micros = (at: string) => at.replace(/\D/g, "");
const kept = rows.filter((r) => r.label === "keep");
const oldestFirst = [...kept].sort((a, b) => (micros(a.at) === micros(b.at) ? (a.id < b.id ? -1 : 1) : micros(a.at) < micros(b.at) ? -1 : 1)).map((r) => r.id);

describe("list conventions of the mailbox family", () => {
  it("limit: 10 by default, 1 to 100, and a number (a string '10' over MCP is refused)", () => {
    expect(parseOrThrow(input, {}).limit).toBe(10);
    expect(parseOrThrow(input, { limit: 100 }).limit).toBe(100);
    for (const limit of [0, 101, "10", 1.5, -1, null]) expect(refused({ limit })).toEqual([{ field: "limit", message: expect.any(String) }]);
  });

  it("before and after: ISO 8601 only, naming the field", () => {
    expect(parseOrThrow(input, { before: "2026-12-01T10:00:00Z", after: "2026-11-30" })).toMatchObject({ before: "2026-12-01T10:00:00Z", after: "2026-11-30" });
    expect(refused({ before: "yesterday" })).toEqual([{ field: "before", message: expect.stringContaining("ISO 8601") }]);
    expect(refused({ after: "1 Dec 2026" })).toEqual([{ field: "after", message: expect.stringContaining("ISO 8601") }]);
  });

  it("ascending is a boolean, false by default; unknown arguments are refused", () => {
    expect(parseOrThrow(input, {}).ascending).toBe(false);
    expect(refused({ ascending: "true" })).toEqual([{ field: "ascending", message: expect.any(String) }]);
    expect(refused({ bogus: 1 })).toEqual([{ field: "bogus", message: "Unknown argument: bogus" }]);
  });

  it("pages through every row once, in order, both ways, with rows a microsecond apart", async () => {
    expect(await walk({ limit: 4, ascending: true })).toEqual(oldestFirst);
    expect(await walk({ limit: 4 })).toEqual([...oldestFirst].reverse());
    expect(await walk({ limit: 100 })).toEqual([...oldestFirst].reverse());
    expect((await call({ limit: oldestFirst.length })).next_page_token).toBeNull();
  });

  it("pageToken: garbage, empty, or altered → validation_error naming pageToken", async () => {
    const { next_page_token } = await call({ limit: 2 });
    const token = next_page_token as string;
    const altered = `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`;
    for (const pageToken of ["garbage", "", altered, `${token}x`, "x".repeat(600)]) {
      expect(refused({ limit: 2, pageToken })).toEqual([{ field: "pageToken", message: expect.any(String) }]);
    }
    // Only arguments that pass their own checks are compared with the token.
    expect(refused({ limit: 0, pageToken: token })).toEqual([{ field: "limit", message: expect.any(String) }]);
  });

  it("pageToken from another filter, inbox, order, tool or project → validation_error naming pageToken", async () => {
    const token = (await call({ limit: 2, inboxId: "mbx_a", labels: ["unread"] })).next_page_token as string;
    const accepted = (args: Record<string, unknown>) => pageAfter(TOOL, mine, parseOrThrow(input, { ...args, pageToken: token }));
    expect(accepted({ limit: 2, inboxId: "mbx_a", labels: ["unread"] })).not.toBeNull();
    // The page size is not part of the filter: a caller may change it between pages.
    expect(accepted({ limit: 7, inboxId: "mbx_a", labels: ["unread"] })).not.toBeNull();
    const filter = { inboxId: "mbx_a", labels: ["unread"] };
    for (const [args, o] of [
      [{ inboxId: "mbx_b", labels: ["unread"] }, {}],
      [{ inboxId: "mbx_a" }, {}],
      [{ ...filter, before: "2026-12-02" }, {}],
      [{ ...filter, ascending: true }, {}],
      [filter, { tool: "list_other_probes" }],
      // Every query is kept to the caller's project; the token is too, so it cannot start another project's list.
      [filter, { actor: theirs }],
    ] as const) {
      const details = refused({ ...args, pageToken: token }, o);
      expect(details).toEqual([{ field: "pageToken", message: expect.stringMatching(/returned for (other arguments|ascending)/) }]);
    }
  });
});
