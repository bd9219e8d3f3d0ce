import { OWNER, expect, server, test } from "./fixtures";
import { dropMaxLength, expectFieldError, ownerAuth, ownerGet, uniq } from "./pages/form-errors";
import { ChannelsPage } from "./pages/channels-page";
import { OwnerSession } from "./pages/owner-session";
import { PolicyPage } from "./pages/policy-page";

// Issue 19, "Bad input", for Add channel and the policy draft editor: an empty required field, a value too long, a
// wrong format and a server-side conflict each land on their field in plain words, and nothing is saved.

type Channels = { channels: { label: string; address: string | null }[] };
type Domains = { domains: { domain: string; is_default: boolean }[] };

test.beforeEach(async ({ page }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
});

test("Add channel: empty, too long, wrong format and a taken address land on their fields; nothing is saved", async ({ page }) => {
  const { domains } = await ownerGet<Domains>(page, "/owner/mail/domains");
  const local = domains.find((d) => d.is_default)?.domain ?? domains[0].domain;
  // A channel on this instance's own domain: reachable without a relay, so the conflict is the only refusal.
  const taken = `forms-${uniq()}@${local}`;
  const made = await page.request.post(`${server.url}/api/v1/owner/channels`, {
    headers: { authorization: ownerAuth },
    data: { kind: "email", address: taken, label: `taken-${uniq()}` },
  });
  expect(made.status(), await made.text()).toBe(201);
  const before = await ownerGet<Channels>(page, "/owner/channels");

  const channels = new ChannelsPage(page);
  await channels.open();
  await page.getByRole("button", { name: "Add channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a channel" });
  const address = dialog.getByLabel("Email address");
  const label = dialog.getByLabel("Label", { exact: true });
  const submit = () => dialog.getByRole("button", { name: "Add channel" }).click();

  await submit();
  await expectFieldError(address, "Enter an email address.");
  await expect(address).toBeFocused();

  await dropMaxLength(address);
  await address.fill(`${"a".repeat(250)}@${local}`);
  await submit();
  await expectFieldError(address, "Use at most 254 characters.");

  await address.fill("mario at example");
  await submit();
  await expectFieldError(address, "Enter an email address.");

  await address.fill(`new-${uniq()}@${local}`);
  await dropMaxLength(label);
  await label.fill("l".repeat(41));
  await submit();
  await expectFieldError(label, "Use at most 40 characters.");
  await expect(address).not.toHaveAttribute("aria-invalid", "true");

  await label.fill("");
  await address.fill(taken);
  await submit();
  await expectFieldError(address, "This address is a channel of the project already.");

  expect(await ownerGet<Channels>(page, "/owner/channels")).toEqual(before);
});

test("Policy draft: empty, too long, wrong format and an unknown approver land on their fields; no draft is saved", async ({ page }) => {
  const before = await ownerGet<{ draft: unknown }>(page, "/owner/policy/draft");
  const policy = new PolicyPage(page);
  await policy.open();
  const json = policy.draftField();
  const note = page.getByLabel("Note (optional)");

  await policy.saveDraft("");
  await expectFieldError(json, 'Write the policy as JSON, e.g. {"rules": []}.');
  await expect(json).toBeFocused();

  await dropMaxLength(note);
  await policy.saveDraft({ rules: [{ id: "fine", effect: "deny" }] }, "n".repeat(501));
  await expectFieldError(note, "Use at most 500 characters.");
  await expect(json).not.toHaveAttribute("aria-invalid", "true");
  await note.fill("");

  await policy.saveDraft({ rules: [{ id: "big-refunds", effect: "maybe" }] });
  await expectFieldError(json, 'Rule 1 "big-refunds": effect must be one of allow, deny, require_approval, auto_approve, auto_approve_notify.');

  await policy.saveDraft({
    rules: [
      { id: "a", effect: "deny" },
      { id: "a", effect: "allow" },
    ],
  });
  await expectFieldError(json, 'Rule 2 "a": the id is used by an earlier rule.');

  await policy.saveDraft({ rules: [{ id: "who", effect: "require_approval", approvers: ["chn_nosuchchannel"] }] });
  await expectFieldError(json, 'Rule 1 "who": in approvers, chn_nosuchchannel is not a channel of this project.');

  await policy.saveDraft({ policy: [] });
  await expectFieldError(json, 'Write the policy as {"rules": [...]}, with no other keys, and at most 100 rules.');

  expect(await ownerGet<{ draft: unknown }>(page, "/owner/policy/draft")).toEqual(before);
});

test("Telegram bot token: empty, too long, wrong format and a token Telegram refuses land on the field; nothing is saved", async ({ page }) => {
  type Telegram = { configured: boolean; username: string | null };
  const before = await ownerGet<Telegram>(page, "/owner/telegram");
  await new ChannelsPage(page).open();
  const token = page.getByLabel(/^(Bot token|Replace the token)$/);
  const submit = () => page.getByRole("button", { name: "Save token" }).click();

  await submit();
  await expectFieldError(token, "Paste the token @BotFather gave you.");

  await token.fill("1".repeat(201));
  await submit();
  await expectFieldError(token, "A bot token is at most 200 characters.");

  await token.fill("not-a-token");
  await submit();
  await expectFieldError(token, "That does not look like a bot token: digits, a colon, then 30 or more characters.");

  // Well formed, but Telegram (unreachable here, or refusing it) does not accept it: said on the field, with why.
  await token.fill(`123456789:${"A".repeat(35)}`);
  await submit();
  await expectFieldError(token, /^Telegram did not accept this token \(.+\); check it with @BotFather\.$/);

  expect(await ownerGet<Telegram>(page, "/owner/telegram")).toEqual(before);
});
