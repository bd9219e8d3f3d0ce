import { randomUUID } from "node:crypto";
import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";
import { shot } from "./screenshots";

/** A REST call with a key, as an agent makes it. */
async function rest(secret: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

test("a key restricted to one mailbox in the dialog reaches only that mailbox; the table shows the restriction, then its deletion", async ({
  page,
  apiKeys,
}) => {
  const id = randomUUID().slice(0, 8);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  await apiKeys.open();
  const admin = await apiKeys.createKey(`mailbox-admin-${id}`, ["inbox_read", "inbox_create", "inbox_delete"]);
  await apiKeys.closeDialog();
  await expect(apiKeys.row(`mailbox-admin-${id}`)).toContainText("All mailboxes");

  const a = (await rest(admin, "POST", "/inboxes", { username: `e2e-a-${id}`, display_name: "Team A" })).json;
  const b = (await rest(admin, "POST", "/inboxes", { username: `e2e-b-${id}` })).json;

  // The picker lists the mailboxes that exist when the page loads.
  await apiKeys.open();
  const dialog = await apiKeys.openCreateDialog();
  const picker = dialog.getByLabel("Restrict to mailbox");
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option", { hasText: "All mailboxes" })).toHaveCount(1);
  await expect(picker.locator("option", { hasText: `${a.email} (Team A)` })).toHaveCount(1);
  await shot(page, "api-keys-restrict");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  const restricted = await apiKeys.createKey(`one-mailbox-${id}`, ["inbox_read"], { mailboxId: a.inbox_id });
  await apiKeys.closeDialog();
  await expect(apiKeys.row(`one-mailbox-${id}`)).toContainText(a.email);

  const listed = await rest(restricted, "GET", "/inboxes");
  expect(listed.json.inboxes.map((i: { inbox_id: string }) => i.inbox_id)).toEqual([a.inbox_id]);
  const other = await rest(restricted, "GET", `/inboxes/${b.inbox_id}`);
  expect(other.status).toBe(404);
  expect(other.json.error.code).toBe("NOT_FOUND");

  expect((await rest(admin, "DELETE", `/inboxes/${a.inbox_id}`)).status).toBe(200);
  await page.reload();
  await expect(apiKeys.row(`one-mailbox-${id}`)).toContainText("mailbox deleted");
  await shot(page, "api-keys-mailbox-deleted");
});
