import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";
import { shot } from "./screenshots";

const ownerAuth = `Basic ${Buffer.from(`${OWNER.email}:${OWNER.password}`).toString("base64")}`;
const AGENTS = "https://agents.example.com";
const issuer = async () => ((await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string }).issuer;
const preflight = async (origin: string) =>
  (
    await fetch(`${server.url}/mcp`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
    })
  ).status;

test("Settings → Remote access: a bad URL is refused on its field and nothing is saved; a saved URL and origin move the OAuth issuer and CORS; clearing returns to PUBLIC_URL", async ({
  page,
}) => {
  // The same server under its other loopback name, so every spec after this one could still reach it.
  const renamed = server.url.replace("127.0.0.1", "localhost");
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  try {
    await page.goto("/settings#remote-access");
    const publicUrl = page.getByLabel("Public URL");
    const origins = page.getByLabel("Extra allowed origins");
    const save = page.getByRole("button", { name: "Save remote access" });
    await expect(publicUrl).toHaveValue("");
    await expect(publicUrl).toHaveAttribute("placeholder", server.url);

    // A path, and an origin with one: each refused on its own field, in plain words.
    await publicUrl.fill("https://brynth.example.com/app");
    await save.click();
    await expect(page.locator("#remote-public-url-error")).toHaveText(
      "https://brynth.example.com/app must have no path (Brynth is served at the root of its address).",
    );
    await expect(publicUrl).toHaveAttribute("aria-invalid", "true");
    await publicUrl.fill(renamed);
    await origins.fill(`${AGENTS}\nhttps://x.example/path`);
    await save.click();
    await expect(page.locator("#remote-allowed-origins-error")).toContainText("https://x.example/path must have no path");
    await expect(page.locator("#remote-public-url-error")).toHaveCount(0);
    await page.reload();
    await expect(publicUrl).toHaveValue("");
    expect(await issuer()).toBe(server.url);

    await publicUrl.fill(`${renamed}/`);
    await origins.fill(`${AGENTS}\n`);
    await save.click();
    await expect(page.getByText(`Remote access saved: ${renamed}`)).toBeVisible();
    await shot(page, "settings-remote-access");
    await page.reload();
    await expect(publicUrl).toHaveValue(renamed);
    await expect(origins).toHaveValue(AGENTS);
    expect(await issuer()).toBe(renamed);
    expect(await preflight(AGENTS)).toBe(204);
    expect(await preflight("https://evil.example")).toBe(403);

    await publicUrl.fill("");
    await origins.fill("");
    await save.click();
    await expect(page.getByText(`Remote access saved: ${server.url}`)).toBeVisible();
    expect(await issuer()).toBe(server.url);
    expect(await preflight(AGENTS)).toBe(403);
  } finally {
    // Whatever failed above, the specs after this one find PUBLIC_URL in force.
    await fetch(`${server.url}/api/v1/owner/settings/remote-access`, {
      method: "PUT",
      headers: { authorization: ownerAuth, "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ public_url: null, allowed_origins: [] }),
    });
  }
});
