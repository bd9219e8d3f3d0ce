import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { FIXED_SCREENS, detailScreens } from "./dashboard-screens";
import { detailDataForSpec } from "./detail-data";
import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";

// Issue 19, "Real parts and tests": every dashboard screen, in both themes, at phone (390 px) and desktop (1440 px)
// width: no horizontal scroll, no serious or critical axe violation, and no console error (a missing favicon is
// one). One page load per screen, theme and width; every problem is collected (expect.soft) so one run lists them
// all. A screenshot of each screen and theme is saved in this test's output folder (test-results/e2e/…).

// The detail screens are walked on data made here (an event, a request, an outbound message, a mailbox thread with a
// received HTML mail, a draft, a webhook's log, a policy version, a key), not on what earlier specs happened to leave.
const seeded = detailDataForSpec();

// A trace of a hundred page loads costs more than the loads; the soft failures already name screen, theme and width.
test.use({ trace: "off" });

const WIDTHS = [390, 1440] as const;
const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];

/** Both ways a theme is chosen: the Settings cookie (forces the class on <html>) and the system's preference. */
async function useTheme(page: Page, theme: Theme) {
  await page.context().addCookies([{ name: "brynth_theme", value: theme, url: server.url }]);
  await page.emulateMedia({ colorScheme: theme });
}

const fileName = (path: string) =>
  path
    .replace(/^\/$/, "overview")
    .replace(/^\//, "")
    .replace(/[^a-zA-Z0-9-]+/g, "_");

async function check(page: Page, info: TestInfo, path: string, theme: Theme, width: number) {
  const errors: string[] = [];
  const onConsole = (m: { type(): string; text(): string; location(): { url: string } }) => {
    if (m.type() === "error") errors.push(`${m.text()} ${m.location().url}`.trim());
  };
  const onPageError = (e: Error) => errors.push(e.message);
  const onFailed = (r: { url(): string; failure(): { errorText: string } | null }) => {
    // A navigation away cancels the live streams: that is not an error.
    if (r.failure()?.errorText !== "net::ERR_ABORTED") errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  };
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  page.on("requestfailed", onFailed);
  try {
    await page.setViewportSize({ width, height: 900 });
    const res = await page.goto(path, { waitUntil: "load" });
    expect.soft(res?.status(), `${path} answers 200`).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // The favicon and late client errors land after `load`; a short settle catches them.
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => {
      const root = document.documentElement;
      if (root.scrollWidth <= window.innerWidth) return null;
      // Name the culprits: elements that stick out of their parent and are not inside a box that scrolls or clips
      // them (a table's overflow-x-auto frame, say), so the failure says where to look.
      const clipped = (el: Element) => {
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          if (getComputedStyle(a).overflowX !== "visible") return true;
        }
        return false;
      };
      const wide = [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(el))
        .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1)
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(" ").slice(0, 4).join(".")} "${(el.textContent ?? "").trim().slice(0, 40)}"`);
      return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth, wide };
    });
    expect.soft(overflow, `${path} (${theme}, ${width}px) scrolls sideways`).toBeNull();
    // axe once per screen and theme, at desktop width where the sidebar is shown too: on this shared machine a
    // run costs seconds, and the phone layout is the same markup (its own risk, overflow, is checked above).
    if (width === 1440) {
      // A received mail's HTML is the sender's markup, shown in a frame sandboxed without scripts: axe cannot run in
      // it (trying left analyze() hanging until the test's timeout), and it is not the dashboard's to fix.
      const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).exclude('iframe[title^="Message:"]').analyze();
      const bad = axe.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.length}× ${v.nodes[0]?.target.join(" ")} — ${v.nodes[0]?.failureSummary?.split("\n")[1]?.trim() ?? ""}`);
      expect.soft(bad, `${path} (${theme}) axe`).toEqual([]);
      await page.screenshot({ path: info.outputPath(`${fileName(path)}-${theme}.png`), fullPage: true, animations: "disabled" });
    }
    expect.soft(errors, `${path} (${theme}, ${width}px) console`).toEqual([]);
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onPageError);
    page.off("requestfailed", onFailed);
  }
}

for (const theme of THEMES) {
  test(`every dashboard screen in the ${theme} theme: no sideways scroll at 390 and 1440 px, no serious axe violation, no console error`, async ({
    page,
  }, info) => {
    // About 50 page loads and 25 axe runs: a few minutes on an idle machine, far more on a loaded one.
    test.setTimeout(900_000);
    await new OwnerSession(page).signIn(OWNER, server.setupUrl);
    await useTheme(page, theme);
    for (const path of [...FIXED_SCREENS, ...(await detailScreens(page, seeded.data))]) {
      for (const width of WIDTHS) {
        await test.step(`${path} at ${width}px`, () => check(page, info, path, theme, width));
      }
    }
  });
}
