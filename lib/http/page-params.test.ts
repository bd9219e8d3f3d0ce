import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "@/components/mailboxes/page-cursor";
import { readThreadSearch } from "@/components/mailboxes/thread-search";
import { pageParams } from "@/lib/http/page-params";

// What a hand-edited dashboard URL can carry. Each of these reached a query and failed the page with a 500; the
// screens as a whole are walked with them in e2e/hostile-query.spec.ts.
describe("a dashboard page's query", () => {
  it("is the first value of each key, with NUL characters made U+FFFD so a filter holding one matches nothing", () => {
    expect(pageParams({ q: "a\u0000b", tab: ["one", "two"], none: undefined })).toEqual({ q: "a\uFFFDb", tab: "one", none: undefined });
  });

  it("pages the Mailboxes screens with a cursor whose time PostgreSQL can read, or starts from the first page", () => {
    for (const at of ["2026-12-03 08:03:42.492+00", "2026-12-03 08:03:42+05:30", "2026-12-03T08:03:42.123456Z", "2026-12-03 08:03:42-15:59"]) {
      expect(decodeCursor(encodeCursor({ at, id: "msg_1" }))).toEqual({ at, id: "msg_1" });
    }
    for (const at of [
      "2026-99-99 00:00:00+00",
      "2026-02-30 00:00:00+00",
      "0000-01-01 00:00:00+00",
      "2026-01-01 25:00:00+00",
      "2026-01-01 00:00+00",
      // Offsets PostgreSQL refuses ("time zone displacement out of range"): the page failed with a 500.
      "2026-01-01 00:00:00+99",
      "2026-01-01 00:00:00+15:99",
      "2026-01-01 00:00:00-16",
    ]) {
      expect(decodeCursor(encodeCursor({ at, id: "msg_1" })), at).toBeNull();
    }
    expect(decodeCursor(encodeCursor({ at: "2026-12-03 08:03:42+00", id: "msg_\u0000" }))).toBeNull();
    expect(decodeCursor("not base64 json")).toBeNull();
  });

  it("cuts a mailbox filter on a whole character: half an emoji failed the labels' query", () => {
    const labels = `${"a".repeat(255)}\u{1F600}`;
    expect(readThreadSearch({ labels }).labels).toBe("a".repeat(255));
    expect(readThreadSearch({ q: `${"b".repeat(254)}\u{1F600}` }).q).toBe(`${"b".repeat(254)}\u{1F600}`);
  });
});
