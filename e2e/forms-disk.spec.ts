import { OWNER, expect, server, test } from "./fixtures";
import { expectFieldError, RAW, uniq } from "./pages/form-errors";
import { DiskPage } from "./pages/disk-page";
import { OwnerSession } from "./pages/owner-session";

// Issue 19, "Bad input", on Disk: the New key dialog and the file upload refuse what they cannot store, on the field
// (or the upload's own row) in plain words, and store nothing.

test.beforeEach(async ({ page }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
});

test("New key: empty, too long, wrong format and a taken key land on their fields; nothing is saved", async ({ page }) => {
  const prefix = `forms-${uniq()}/`;
  const taken = `${prefix}taken`;
  const disk = new DiskPage(page);
  await disk.openKeys();
  // The key that will be taken, saved the ordinary way.
  await disk.submitNewKey({ key: taken, valueJson: '{"n": 1}' });
  await expect(page.getByRole("dialog")).toBeHidden();

  await disk.openKeys();
  let dialog = await disk.submitNewKey({ key: "", valueJson: "{}" });
  const key = dialog.getByLabel("Key");
  await expectFieldError(key, "Must not be empty.");
  await expect(key).toBeFocused();

  dialog = await disk.submitNewKey({ key: `${prefix}${"k".repeat(520)}`, valueJson: "{}" });
  await expectFieldError(key, "Must be at most 512 bytes of UTF-8.");

  dialog = await disk.submitNewKey({ key: `${prefix}bad`, valueJson: "{not json" });
  await expectFieldError(dialog.getByLabel("Value (JSON)"), /^Not valid JSON: /);
  dialog = await disk.submitNewKey({ key: `${prefix}bad`, valueJson: "{}", ttl: "soon" });
  await expectFieldError(dialog.getByLabel("Expires after (seconds)"), "A whole number of seconds, or empty for no expiry.");
  dialog = await disk.submitNewKey({ key: `${prefix}bad`, valueJson: "{}", ttl: "99999999999" });
  await expectFieldError(dialog.getByLabel("Expires after (seconds)"), "Use a number no larger than 31,536,000.");
  dialog = await disk.submitNewKey({ key: "state/forms", valueJson: "{}" });
  await expectFieldError(key, "Keys under state/ belong to state_save.");

  dialog = await disk.submitNewKey({ key: taken, valueJson: '{"n": 2}' });
  await expectFieldError(key, `A key named ${taken} exists already. Open it to change its value.`);

  await page.keyboard.press("Escape");
  await page.goto(`/disk?tab=keys&prefix=${encodeURIComponent(prefix)}`);
  await expect(page.getByRole("link", { name: taken, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: `${prefix}bad`, exact: true })).toHaveCount(0);
  // The taken key was not written again.
  await page.getByRole("link", { name: taken, exact: true }).click();
  await expect(page.getByText("version 1", { exact: true })).toBeVisible();
});

test("Upload: a file name the disk cannot store fails on its own row in plain words, and no file appears", async ({ page }) => {
  const disk = new DiskPage(page);
  await disk.openFiles();
  const name = `${"n".repeat(300)}.txt`;
  await disk.upload({ name, mimeType: "text/plain", buffer: Buffer.from("hello") });
  const row = page.locator('li[data-upload-state="failed"]').filter({ hasText: name.slice(0, 20) });
  await expect(row).toBeVisible();
  // The owner's words for the disk's limit: no "segments", no field name.
  const status = (await row.getByRole("status").textContent())?.split(" · ")[0]?.trim() ?? "";
  expect(status).toBe("A file or folder name can be at most 255 bytes.");
  expect(status).not.toMatch(RAW);
  await page.reload();
  await expect(disk.fileRow(name)).toHaveCount(0);
});
