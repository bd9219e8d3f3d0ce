import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { newId } from "@/lib/ids";
import { countPendingRequests, listPendingRequests } from "@/lib/approvals/list-requests";
import { seedProject } from "@/lib/testing/seed";

/** The Approvals screen's pending list, a page at a time: every waiting request can be reached, oldest first. */
describe("pending requests, paged", () => {
  it("reaches all 230 waiting requests in pages, oldest first, none twice, ties on the same millisecond included", async () => {
    const { project } = await seedProject({ name: "Busy approvals" });
    const base = Date.now() - 3600_000;
    const rows = Array.from({ length: 230 }, (_, i) => ({
      id: newId("req"),
      projectId: project.id,
      kind: "approval" as const,
      action: "refund",
      summary: `Refund ${i}`,
      expiresAt: new Date(Date.now() + 3600_000),
      approvers: [],
      actionHash: "x",
      // Pairs share a millisecond: the cursor's id breaks the tie.
      createdAt: new Date(base + Math.floor(i / 2)),
    }));
    await (await getDb()).insert(approvalRequests).values(rows);
    const db = await getDb();
    const seen: { summary: string; at: number }[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await listPendingRequests(db, project.id, { after });
      seen.push(...page.rows.map((r) => ({ summary: r.summary, at: r.createdAt.getTime() })));
      if (!page.next) break;
      after = page.next;
    }
    // Before: the first 200, and no way to the rest. (Within a millisecond the order is the ids', in the database's collation.)
    expect(new Set(seen.map((r) => r.summary)).size).toBe(230);
    expect(seen.map((r) => r.at)).toEqual(rows.map((r) => r.createdAt.getTime()));
    expect(await countPendingRequests(db, project.id)).toBe(230);
    // A hand-edited cursor PostgreSQL cannot read is the first page, not a 500.
    expect((await listPendingRequests(db, project.id, { after: "10000-01-01T00:00:00Z|req_x" })).rows[0].createdAt.getTime()).toBe(base);
  });
});
