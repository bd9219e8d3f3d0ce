import { createHash, randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { OWNER, expect, server, test } from "./fixtures";
import { DiskPage } from "./pages/disk-page";
import { OwnerSession } from "./pages/owner-session";
import { shot } from "./screenshots";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

test("a 5 MB file uploaded in the browser with a progress bar downloads and links back byte for byte", async ({ page }) => {
  test.setTimeout(120_000);
  const bytes = randomBytes(5 * 1024 * 1024);
  const name = `e2e-${randomUUID().slice(0, 8)}.bin`;

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const disk = new DiskPage(page);
  await disk.openFiles();

  // Records every state an upload row goes through, so a bar that was only briefly there still counts.
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { __uploadStates: string[] }).__uploadStates = []);
    new MutationObserver(() => {
      for (const li of document.querySelectorAll("li[data-upload-state]")) {
        const bar = li.querySelector('[role="progressbar"]');
        const state = `${li.getAttribute("data-upload-state")}:${bar ? "bar" : "nobar"}`;
        if (seen.at(-1) !== state) seen.push(state);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });

  await disk.upload({ name, mimeType: "application/octet-stream", buffer: bytes });
  const bar = disk.uploadProgress(name);
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute("aria-valuetext", "Uploaded", { timeout: 60_000 });
  await expect(page.getByRole("status").filter({ hasText: "Uploaded" })).toBeVisible();
  const states = await page.evaluate(() => (window as unknown as { __uploadStates: string[] }).__uploadStates);
  expect(states[0]).toBe("uploading:bar");
  expect(states.at(-1)).toBe("done:bar");

  const row = disk.fileRow(name);
  await expect(row).toBeVisible();
  await shot(page, "disk-files");
  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("button", { name: `Download ${name}` }).click()]);
  expect(download.suggestedFilename()).toBe(name);
  const downloaded = await readFile((await download.path())!);
  expect(downloaded.length).toBe(bytes.length);
  expect(sha256(downloaded)).toBe(sha256(bytes));

  const link = await disk.createLink(name);
  const res = await fetch(link);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-disposition")).toMatch(/^attachment\b/);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const linked = new Uint8Array(await res.arrayBuffer());
  expect(sha256(linked)).toBe(sha256(bytes));

  await page.goto("/disk?tab=links");
  await expect(page.getByText(name).first()).toBeVisible();
  await shot(page, "disk-links");
});

test("an owner writes a JSON key with a TTL in the browser, a bad value is refused by its field, and an agent reads it as saved", async ({ page, apiKeys }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e disk ${randomUUID().slice(0, 8)}`, ["disk"]));
  await apiKeys.closeDialog();
  const key = `e2e/${randomUUID().slice(0, 8)}`;
  const valueJson = '{"b": 1, "a": [1.5, "é 🦀", null], "n": 12345678901}';

  const disk = new DiskPage(page);
  await disk.openKeys();
  const dialog = await disk.submitNewKey({ key, valueJson: "{not json" });
  await expect(dialog.getByText(/Not valid JSON/)).toBeVisible();
  await disk.submitNewKey({ key, valueJson, ttl: "0" });
  await expect(dialog.getByText(/1 and|at least|greater|too small|>=/i)).toBeVisible();
  const savedAfter = Date.now();
  await disk.submitNewKey({ key, valueJson, ttl: "3600" });
  await expect(dialog).toBeHidden();

  // The viewer opens on the new key, with its value as a tree and its expiry.
  await expect(page.getByRole("heading", { name: key })).toBeVisible();
  await expect(page.getByText(/expires in (59|60) min|expires in 1 h/)).toBeVisible();
  await shot(page, "disk-keys");

  const res = await fetch(`${server.url}/api/v1/kv/${encodeURIComponent(key)}`, { headers: { authorization: `Bearer ${agentKey}` } });
  expect(res.status).toBe(200);
  const got = await res.json();
  expect(JSON.stringify(got.value)).toBe(JSON.stringify(JSON.parse(valueJson)));
  expect(new Date(got.expires_at).getTime()).toBeGreaterThanOrEqual(savedAfter + 3600_000);
});
