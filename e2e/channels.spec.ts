import { randomUUID } from "node:crypto";
import { OWNER, expect, server, test } from "./fixtures";
import { shot } from "./screenshots";
import { ChannelsPage } from "./pages/channels-page";
import { OwnerSession } from "./pages/owner-session";
import { openDialog } from "./pages/open-dialog";

// Channels on day one: in a fresh project with no relay (and no SMTP_RELAY_URL on this server), the owner adds an
// email channel for a colleague outside the instance. The dialog said beforehand that only this instance's addresses
// can be reached; the refusal links to Mail settings, and nothing was saved.
test("with no relay, adding an outside email channel is refused with a link to Mail settings, and nothing is saved", async ({ page }) => {
  const suffix = randomUUID().slice(0, 8);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);

  const create = await openDialog(page, "New project");
  await create.getByLabel("Name").fill(`Day one ${suffix}`);
  await create.getByRole("button", { name: "Create project" }).click();
  await expect(create).toBeHidden();

  const channels = new ChannelsPage(page);
  await channels.open();
  await page.getByRole("button", { name: "Add channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a channel" });
  await expect(dialog.getByText("No mail relay is set yet, so only addresses on this instance can be reached.")).toBeVisible();
  await dialog.getByLabel("Email address").fill(`colleague-${suffix}@example.net`);
  await dialog.getByLabel("Label", { exact: true }).fill(`colleague-${suffix}`);
  await dialog.getByRole("button", { name: "Add channel" }).click();

  const refusal = dialog.getByRole("alert");
  await expect(refusal).toContainText("No outbound mail transport is configured");
  await shot(page, "channels-no-relay");
  await refusal.getByRole("link", { name: "Set up a relay in Mail settings" }).click();
  await expect(page).toHaveURL(/\/mail\/settings$/);
  await expect(page.getByText("SMTP relay", { exact: true })).toBeVisible();

  await channels.open();
  await expect(page.getByRole("row").filter({ hasText: `colleague-${suffix}` })).toHaveCount(0);
});
