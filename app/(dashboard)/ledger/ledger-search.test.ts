import { describe, expect, it } from "vitest";
import { ledgerSearch } from "@/components/ledger/ledger-search";
import { getDb } from "@/lib/db/client";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { seedProject } from "@/lib/testing/seed";

/** The ledger screen's and its export's filters take what ledger_query takes, and refuse what it refuses. */
describe("ledgerSearch", () => {
  it("refuses times PostgreSQL cannot read, as the tool does, instead of failing in the query", async () => {
    for (const since of ["0000-01-01", "0000-12-31T23:59", "9999-12-31T23:59:59-14:00", "10000-01-01"]) {
      const parsed = ledgerSearch.safeParse({ since });
      expect(parsed.success, since).toBe(false);
    }
    // Before: parsed, and the query behind the page (a 500) and the export's stream (a broken download) failed.
    const { actor } = await seedProject();
    const ok = ledgerSearch.parse({ since: "0001-01-01", until: "9999-12-31T23:59" });
    expect((await queryLedger(await getDb(), { actor, ...ok, limit: 5 })).entries.length).toBeGreaterThan(0);
    expect(ledgerSearch.safeParse({ cursor: "1e20" }).success).toBe(false);
  });

  it("refuses a day the month does not have, which JavaScript moves on (2026-02-30 was read as March 2nd)", () => {
    for (const since of ["2026-02-30", "2026-02-29T10:00", "2026-04-31T00:00:00Z"]) {
      expect(ledgerSearch.safeParse({ since }).success, since).toBe(false);
    }
    expect(ledgerSearch.parse({ since: "2028-02-29", until: "2026-12-31T23:59:59+05:00" })).toMatchObject({
      since: new Date("2028-02-29T00:00:00Z"),
      until: new Date("2026-12-31T18:59:59Z"),
    });
  });

  it("filters by any subject a call records (a 1,024-byte disk path), as ledger_query does", () => {
    expect(ledgerSearch.parse({ subject: "p/".repeat(300) }).subject).toHaveLength(600);
    expect(ledgerSearch.safeParse({ subject: "p".repeat(1025) }).success).toBe(false);
  });
});
