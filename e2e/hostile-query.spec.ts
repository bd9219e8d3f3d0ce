import { FIXED_SCREENS, detailScreens } from "./dashboard-screens";
import { detailDataForSpec } from "./detail-data";
import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";

// A dashboard URL is the owner's to edit, and a shared link can carry anything. Every screen, with each query
// parameter any screen reads set to what the database cannot take or a page did not issue, must answer as a page
// (200, or 400/404), never 500: a NUL in `/ledger?op=`, a hand-made `/mail?cursor=` with the date 2026-99-99 and a
// 3,000-character `/disk?prefix=` each failed their page before (lib/http/page-params.ts and the cursor decoders).

const seeded = detailDataForSpec();
test.use({ trace: "off" });

/** Every query parameter a dashboard screen reads (grep `searchParams` under app/(dashboard)). */
const NAMES = [
  ...["q", "cursor", "tab", "view", "status", "kind", "agent", "before", "after", "since", "until", "limit", "op", "platform"],
  ...["subject", "source", "type", "reason", "version", "revoked", "unused", "create", "prefix", "key", "dir", "draft"],
  ...["thread", "labels", "spam", "blocked", "unauth", "trash", "webhook", "bookkeeping", "format", "direction"],
];
/** Free-text parameters, each past the screens' limits (2,000 characters), in one URL under Node's 16 KB of headers. */
const LONG = ["q", "prefix", "key", "dir", "subject", "source"];
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
/** Cursors shaped like the screens' own, holding what their queries cannot read. */
const FORGED_CURSORS = [
  b64(["2026-99-99 00:00:00+00", "x"]),
  b64(["2026-01-01T00:00:00Z", "evt_\u0000"]),
  b64(["0000-01-01T00:00:00Z", "x"]),
  b64(["2026-01-01 00:00:00+99", "x"]),
  // The Outbound screen's own shape: time|id.
  Buffer.from("2026-99-99 00:00:00+00|msg_a").toString("base64url"),
  Buffer.from("2026-01-01 00:00:00+99|msg_a").toString("base64url"),
  "%E0%A4%A",
  "AAAA",
];
/** Values that fit a parameter's shape but not the column behind it (found by helper-91: each was a 500). */
const OUT_OF_RANGE = [
  "version=3000000000",
  "version=1e308",
  `before=${encodeURIComponent("0000-01-01T00:00:00Z|req_a")}`,
  `before=${encodeURIComponent("10000-01-01|req_a")}`,
  `labels=${"a".repeat(255)}%F0%9F%98%80`,
];
/** Path segments no row can hold: a NUL, and percent-encoding that decodes once and breaks the second time. */
const HOSTILE_PATHS = ["/mail/%00", "/mail/%00/attachments/%00", "/mail/outbound/%2525zz", "/mail/%2525zz"];

test("every dashboard screen answers a hostile query string as a page, never with a server error", async ({ page }) => {
  test.setTimeout(900_000);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const screens = [...new Set([...FIXED_SCREENS, ...(await detailScreens(page, seeded.data))])];
  const failures: string[] = [];
  const get = async (url: string) => {
    const res = await page.request.get(url, { maxRedirects: 0 });
    if (res.status() >= 500) failures.push(`${res.status()} ${url.slice(0, 160)}`);
  };
  for (const screen of screens) {
    const join = (query: string) => `${screen}${screen.includes("?") ? "&" : "?"}${query}`;
    for (const name of NAMES) await get(join(`${name}=x%00y`));
    for (const cursor of FORGED_CURSORS) await get(join(`cursor=${cursor}`));
    for (const query of OUT_OF_RANGE) await get(join(query));
    await get(join(LONG.map((n) => `${n}=${"A".repeat(2_100)}`).join("&")));
    await get(join(NAMES.map((n) => `${n}=a&${n}=b`).join("&")));
  }
  for (const path of HOSTILE_PATHS) await get(path);
  const inbox = screens.find((s) => /^\/mail\/mbx_/.test(s))?.split("?")[0];
  if (inbox) await get(`${inbox}/attachments/%00`);
  expect(failures).toEqual([]);
  // An entry's number is digits: Number() opened /ledger/0x1 as entry 1 and /ledger/1e0 too.
  for (const seq of ["0x1", "1e0"]) expect((await page.request.get(`/ledger/${seq}`)).status(), seq).toBe(404);
});
