import type { Page } from "@playwright/test";
import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";

/** The nonce of a response's Content-Security-Policy (script-src 'nonce-…'). */
const nonceOf = (csp: string | undefined) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? "")?.[1];

function expectSecurityHeaders(headers: Record<string, string>) {
  const csp = headers["content-security-policy"];
  expect(csp).toContain("'strict-dynamic'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-eval");
  expect(nonceOf(csp)).toBeTruthy();
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBeTruthy();
  expect(headers["permissions-policy"]).toContain("camera=()");
  // PUBLIC_URL is http here.
  expect(headers["strict-transport-security"]).toBeUndefined();
}

/** Every CSP violation the page reports, from the DOM event and from the console ("Refused to …"). */
async function recordViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Refused to|Content Security Policy/i.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  await page.exposeFunction("__cspViolation", (v: string) => seen.push(`event: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __cspViolation: (v: string) => void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return seen;
}

test("the login page carries the security headers, with a fresh nonce on its scripts each time", async ({ request }) => {
  const first = await request.get("/login");
  const second = await request.get("/login");
  for (const res of [first, second]) {
    expect(res.status()).toBe(200);
    expectSecurityHeaders(res.headers());
    // Next put the header's nonce on its own scripts.
    expect(await res.text()).toContain(`nonce="${nonceOf(res.headers()["content-security-policy"])}"`);
  }
  expect(nonceOf(first.headers()["content-security-policy"])).not.toBe(nonceOf(second.headers()["content-security-policy"]));
  expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");

  const notFound = await request.get("/no-such-page");
  expect(notFound.status()).toBe(404);
  expectSecurityHeaders(notFound.headers());
  // A capability link's page sends no Referer to other sites (and still a real Origin with its own form).
  const decide = await request.get("/decide/not-a-token");
  expectSecurityHeaders(decide.headers());
  expect(decide.headers()["referrer-policy"]).toBe("same-origin");
  // JSON too is never sniffed.
  const json = await request.get("/api/v1/whoami");
  expect(json.headers()["x-content-type-options"]).toBe("nosniff");
});

test("the dashboard is used under its CSP without a single violation", async ({ page }) => {
  const violations = await recordViolations(page);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  // A link's name may end in its badge's count ("Approvals 2"), left by earlier specs on the same server.
  for (const label of ["Events", "Approvals", "Ledger", "Disk", "API keys", "Overview"]) {
    const name = new RegExp(`^${label}( \\d+)?$`);
    await page.getByRole("navigation").getByRole("link", { name }).first().click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  // A full load of a dashboard page carries the headers, and its hydrated controls work (a Radix menu, positioned
  // by inline styles).
  const reload = await page.reload();
  expectSecurityHeaders(reload!.headers());
  // Pressed until it opens: a click before hydration opens nothing.
  await expect(async () => {
    await page.getByRole("button", { name: "Owner menu" }).click();
    await expect(page.getByRole("menu")).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.keyboard.press("Escape");
  expect(violations).toEqual([]);
});

test("a server action posted from another origin is refused with 403, not 500", async ({ request }) => {
  const res = await request.post("/", {
    headers: { "next-action": "0".repeat(42), origin: "http://evil.example", "content-type": "text/plain;charset=UTF-8" },
    data: "[]",
  });
  expect(res.status()).toBe(403);
  expect(await res.text()).toContain("another origin");
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
});
