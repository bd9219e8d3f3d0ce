import { randomUUID } from "node:crypto";
import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";
import { PolicyPage } from "./pages/policy-page";
import { shot } from "./screenshots";
import { ownerAuth, rest } from "./rest";

// Issue 19 §2 as an owner does it: a draft is saved (not in force), simulated beside the policy in force, applied,
// and what an agent's ask_approval gets changes; the history shows each version's diff, and a revert restores one.

type Answer = { request_id: string; status: string; decided_by: string | null };

test("a draft that would auto-approve a refund is simulated beside the policy in force, applied, diffed and reverted", async ({ page, apiKeys }) => {
  // A long walk (three versions, seven agent calls) on a shared 2-core machine: more than the default minute.
  test.setTimeout(180_000);
  const suffix = randomUUID().slice(0, 8);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const key = await apiKeys.open().then(() => apiKeys.createKey(`e2e policy ${suffix}`, ["approvals"]));
  await apiKeys.closeDialog();
  const agent = `Bearer ${key}`;
  const ask = (amount: number) =>
    rest<Answer>("/approvals", {
      method: "POST",
      auth: agent,
      body: { action: "refund", summary: `Refund ${amount} € (${suffix})?`, amount, risk: "low", wait_seconds: 0 },
    });
  // Pending requests this test leaves would wait on the Approvals screen for nobody: the owner denies them.
  const settle = (a: Answer) => rest(`/requests/${a.request_id}/decision`, { method: "POST", auth: ownerAuth, body: { outcome: "deny" } });

  const start = await rest<{ version: number; rules: Record<string, unknown>[] }>("/policy", { auth: agent });
  const before = await ask(30);
  expect(before.status).toBe("pending");
  await settle(before);

  const policy = new PolicyPage(page);
  await policy.open();

  // Bad input: the error sits on the field and names the rule; nothing is saved.
  await policy.saveDraft('{"rules": [{"id": "big-refunds", "effect": "maybe"}]}');
  await expect(page.getByText(/^Rule 1 "big-refunds": effect/)).toBeVisible();
  await expect(policy.draftField()).toHaveAttribute("aria-invalid", "true");
  await policy.saveDraft("{ not json");
  await expect(page.getByText(/^The policy is not valid JSON/)).toBeVisible();
  await expect(page.getByText("No draft yet")).toBeVisible();

  const rules = [{ id: `small-refunds-${suffix}`, action: "refund", amount_lte: 50, effect: "auto_approve" }, ...start.rules];
  await policy.saveDraft({ rules }, "Small refunds need nobody");
  await expect(page.getByText("Draft saved. It is not in force until you apply it.")).toBeVisible();
  await expect(page.getByText(/Saved .* not in force/)).toBeVisible();
  await expect(policy.draftField()).not.toHaveAttribute("aria-invalid");
  await expect(page.getByRole("list", { name: "Changes" }).first()).toContainText(`Added rule 1 small-refunds-${suffix}`);

  // The dry run: the same request, in force → ask the owner; draft → auto-approve.
  await policy.simulateAsk({ action: "refund", amount: 30, risk: "low" });
  await expect(policy.simInForce()).toContainText("ask the owner");
  await expect(policy.simDraft()).toContainText("auto-approve");
  await expect(policy.simDraft()).toContainText(`by rule small-refunds-${suffix}`);
  await shot(page, "policy-draft-simulated");

  // Saved is not applied: the agent still waits for a person.
  const stillAsks = await ask(30);
  expect(stillAsks.status).toBe("pending");
  await settle(stillAsks);

  const v1 = start.version + 1;
  await policy.applyDraft(v1);
  await expect(page.getByText("No draft yet")).toBeVisible();
  const approved = await ask(30);
  expect(approved).toMatchObject({ status: "approved", decided_by: `policy:small-refunds-${suffix}` });
  const big = await ask(80);
  expect(big.status).toBe("pending");
  await settle(big);

  // A second version tightens the limit; the history says so in words.
  await policy.saveDraft({ rules: [{ ...rules[0], amount_lte: 20 }, ...start.rules] });
  await expect(page.getByText(/Saved .* not in force/)).toBeVisible();
  await policy.applyDraft(v1 + 1);
  const v2 = policy.version(v1 + 1);
  await expect(v2).toContainText(`Changed small-refunds-${suffix}: amount at most 50 → 20`);
  await expect(v2).toContainText(`Applied by ${OWNER.email} in the dashboard`);
  await expect(policy.version(v1)).toContainText(`Added rule 1 small-refunds-${suffix}`);
  await expect(policy.version(v1)).toContainText("Small refunds need nobody");
  const tightened = await ask(30);
  expect(tightened.status).toBe("pending");
  await settle(tightened);

  // Revert: version v1's rules come back as a new version, itself in the history with its diff.
  await policy.revertTo(v1, v1 + 2);
  await expect(policy.version(v1 + 2)).toContainText(`Revert to version ${v1}`);
  await expect(policy.version(v1 + 2)).toContainText(`Changed small-refunds-${suffix}: amount at most 20 → 50`);
  expect((await ask(30)).status).toBe("approved");
  await shot(page, "policy-history");

  // At phone width nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(policy.version(v1 + 2)).toBeVisible();
  const overflow = await page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return null;
    // The widest culprits, so a failure says where to look.
    return [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(" ").slice(0, 4).join(".")}`);
  });
  expect(overflow, "the Policy screen scrolls sideways at 390 px").toBeNull();

  // Leave the instance's policy as it was for the specs after this one, over owner REST.
  await rest("/owner/policy/draft", { method: "PUT", auth: ownerAuth, body: { policy: { rules: start.rules }, note: "e2e: back to the start" } });
  await rest("/owner/policy/apply", { method: "POST", auth: ownerAuth, body: {} });
});
