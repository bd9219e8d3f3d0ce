import { OWNER, expect, server, test } from "./fixtures";
import { dropMaxLength, expectFieldError, ownerGet, uniq } from "./pages/form-errors";
import { MailPage } from "./pages/mail-page";
import { OwnerSession } from "./pages/owner-session";
import { SourcesPage } from "./pages/sources-page";
import { openDialog } from "./pages/open-dialog";
import { startRelaySink } from "./relay-sink";
import { rest } from "./rest";

// Issue 19, "Bad input", on the settings-like forms: Add domain, the SMTP relay and its test send on Mail settings,
// New project and a source's secret rotation. Each refusal sits on its field in plain words; nothing is saved.

type Domains = { domains: { domain: string; is_default: boolean }[] };
type Project = { id: string; name: string };
type Relay = { relay: { host: string; port: number; security: string; username: string | null } | null };

test.beforeEach(async ({ page }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
});

test("Add domain: empty, too long, wrong format and the instance's own domain land on Domain; nothing is added", async ({ page }) => {
  const before = await ownerGet<Domains>(page, "/owner/mail/domains");
  const own = before.domains.find((d) => d.is_default)?.domain ?? before.domains[0].domain;
  const mail = new MailPage(page);
  await mail.open("Domains");
  await page.getByRole("button", { name: "Add domain" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add a custom domain" });
  const domain = dialog.getByLabel("Domain");
  const add = () => dialog.getByRole("button", { name: "Add domain" }).click();

  await add();
  await expectFieldError(domain, "Fill this in.");
  await expect(domain).toBeFocused();
  await domain.fill(`${["a", "b", "c", "d", "e"].map((c) => c.repeat(60)).join(".")}.example`);
  await add();
  await expectFieldError(domain, "Use at most 253 characters.");
  await domain.fill("not a domain");
  await add();
  await expectFieldError(domain, /^[A-Z]/);
  await domain.fill(own);
  await add();
  await expectFieldError(domain, `${own} is this instance's default mail domain already.`);

  expect(await ownerGet<Domains>(page, "/owner/mail/domains")).toEqual(before);
});

test("SMTP relay: empty, too long and malformed host or port land on their fields; the relay is unchanged", async ({ page }) => {
  const before = await ownerGet<unknown>(page, "/owner/mail/relay");
  const mail = new MailPage(page);
  await mail.open("Mail settings");
  // By role: the required fields' labels end in a (hidden) asterisk.
  const host = page.getByRole("textbox", { name: "Host", exact: true });
  const port = page.getByRole("spinbutton", { name: "Port", exact: true });
  const save = () => page.getByRole("button", { name: "Save relay" }).click();
  await port.fill("587");

  await host.fill("");
  await save();
  await expectFieldError(host, "Fill this in.");
  await expect(host).toBeFocused();
  await host.fill(`${"h".repeat(250)}.example`);
  await save();
  await expectFieldError(host, "Use at most 253 characters.");
  await host.fill("smtp example com");
  await save();
  await expectFieldError(host, "Must be a host name or IP address.");
  await host.fill("smtp.example.com");
  await port.fill("70000");
  await save();
  await expectFieldError(port, "Use a number no larger than 65,535.");
  await port.fill("");
  await save();
  await expectFieldError(port, "Fill this in.");

  expect(await ownerGet<unknown>(page, "/owner/mail/relay")).toEqual(before);
});

test("Send test message: empty, too long, malformed and a display name land on Send to; nothing is sent", async ({ page }) => {
  // The test send is disabled until a relay is configured: point the project's relay at a local sink (over owner
  // REST, as a script would), and put back what was there at the end so later specs meet the relay they expect.
  const sink = await startRelaySink();
  const before = await ownerGet<Relay>(page, "/owner/mail/relay");
  await rest("/owner/mail/relay", { method: "PUT", body: { host: "127.0.0.1", port: sink.port, security: "none", clear_password: true } });
  try {
    const mail = new MailPage(page);
    await mail.open("Mail settings");
    const to = page.getByLabel("Send to", { exact: true });
    const send = page.getByRole("button", { name: "Send test message" });
    await expect(send).toBeEnabled();

    await to.fill("");
    await send.click();
    await expectFieldError(to, "Enter the address to send the test to.");
    await to.fill(`${"a".repeat(64)}@${"b".repeat(200)}.example`);
    await send.click();
    await expectFieldError(to, "Use at most 254 characters.");
    await to.fill("ada at example.com");
    await send.click();
    await expectFieldError(to, /^Enter a plain address such as name@example\.com/);
    await to.fill("Ada Lovelace <ada@example.com>");
    await send.click();
    await expectFieldError(to, /^Enter a plain address such as name@example\.com/);
    // Every refusal came from the form, none from the relay: no status line, and the sink received nothing.
    await expect(page.getByRole("status").filter({ hasText: /Accepted by the relay|refused|could not/ })).toHaveCount(0);
    expect(sink.messages).toHaveLength(0);
  } finally {
    const r = before.relay;
    if (r) await rest("/owner/mail/relay", { method: "PUT", body: { host: r.host, port: r.port, security: r.security, username: r.username ?? undefined } });
    else await rest("/owner/mail/relay", { method: "DELETE" });
    await sink.close();
  }
  expect(await ownerGet<Relay>(page, "/owner/mail/relay")).toEqual(
    expect.objectContaining({ relay: before.relay && expect.objectContaining({ host: before.relay.host, port: before.relay.port }) }),
  );
});

test("New project: an empty or too long name lands on Name; no project is made", async ({ page }) => {
  const projects = async () => {
    const body = await ownerGet<{ projects: Project[] } | Project[]>(page, "/projects");
    return (Array.isArray(body) ? body : body.projects).map((p) => p.id).sort();
  };
  const before = await projects();
  await page.goto("/");
  const dialog = await openDialog(page, "New project");
  const name = dialog.getByLabel("Name");
  const create = () => dialog.getByRole("button", { name: "Create project" }).click();

  await name.fill("   ");
  await create();
  await expectFieldError(name, "Name the project.");
  await expect(name).toBeFocused();
  await dropMaxLength(name);
  await name.fill("p".repeat(101));
  await create();
  await expectFieldError(name, "Use at most 100 characters.");
  expect(await projects()).toEqual(before);
});

test("Rotate a source's secret: empty, too long and a wrong format land on New secret", async ({ page }) => {
  const sources = new SourcesPage(page);
  const name = `e2e-rotate-${uniq()}`;
  await sources.open();
  await sources.addWebhookSource({ name, verification: "Standard Webhooks (Svix)", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" });
  await page.getByRole("button", { name: `Rotate the secret of ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Rotate the secret of “${name}”` });
  const secret = dialog.getByLabel("New secret");
  const rotate = () => dialog.getByRole("button", { name: /^Rotate/ }).click();

  await rotate();
  await expectFieldError(secret, "Must be at least 8 characters.");
  await expect(secret).toBeFocused();
  await secret.fill(`whsec_${"A".repeat(1000)}`);
  await rotate();
  await expectFieldError(secret, "Use at most 1,000 characters.");
  await secret.fill("not-a-standard-webhooks-secret");
  await rotate();
  await expectFieldError(secret, "A Standard Webhooks secret is base64, as whsec_<base64> or alone.");
  await expect(dialog).toBeVisible();
});
