import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailMessages, type Mailbox } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { mailHtmlUrl } from "@/lib/mail/http/mail-html-url";
import { sanitizeMailHtml } from "@/lib/mail/http/sanitize-mail-html";
import { serveMailHtml } from "@/lib/mail/http/serve-mail-html";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { sendDraft } from "@/lib/tools/mailboxes/send-draft";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call, projectWithKey, refusal } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * A send held for the owner goes out with the HTML the owner is shown. The Drafts screen frames the draft's HTML
 * sanitized, which drops <style> blocks, while approval sent the HTML as the agent wrote it, and mail clients apply
 * <style>: the owner read "Invoice attached as agreed." and approved, the recipient read "Wire 48,000 EUR to IBAN …"
 * (found by helper-117). Held, the HTML is sanitized, so the preview, the stored draft and the sent message agree.
 */
const spoof = [
  "<style>.owner{display:none!important}.recipient{display:block!important}</style>",
  '<p class="owner">Hi Bob, thanks for the call. Invoice attached as agreed.</p>',
  '<p class="recipient" style="display:none">URGENT: our bank changed. Wire 48,000 EUR to IBAN XX00 EVIL 0000 today.</p>',
].join("");

let p: Awaited<ReturnType<typeof projectWithKey>>;
let box: Mailbox;
let bob: Mailbox;
beforeAll(async () => {
  p = await projectWithKey("Held HTML");
  box = await seedMailbox(p.project.id);
  bob = await seedMailbox(p.project.id);
  await (await getDb()).update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
});

const heldRow = async (draftId: string) => (await (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.id, draftId)))[0];

describe("a held send's HTML", () => {
  it("is held as the owner is shown it, and exactly that goes out", async () => {
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [bob.address], subject: "Invoice", html: spoof });
    expect((await refusal(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id })).code).toBe("approval_required");
    const held = await heldRow(d.draft_id);
    expect(held.html).toBe(sanitizeMailHtml(spoof).html);
    expect(held.html).not.toContain("<style");
    // The preview serves the same HTML: sanitizing it again changes nothing.
    const preview = await serveMailHtml(new Request(mailHtmlUrl(p.project.id, d.draft_id, new Date(Date.now() + 60_000))));
    expect(await preview.text()).toBe(held.html);

    await (await getDb()).transaction((tx) => decideAsOwner(tx, { actor: p.actor, requestId: held.approvalRequestId!, verdict: { outcome: "approve" } }));
    await drainJobs();
    const [sent] = await (await getDb()).select().from(mailMessages).where(eq(mailMessages.draftId, d.draft_id));
    expect(sent.html).toBe(held.html);
  });

  it("of a send_message held by the mailbox's policy is sanitized too", async () => {
    const err = await refusal(sendMessage, p.mcp, { inboxId: box.id, to: [bob.address], subject: "Invoice", html: spoof });
    expect(err.code).toBe("approval_required");
    const held = await heldRow((err.details as { draft_id: string }).draft_id);
    expect(held.html).toBe(sanitizeMailHtml(spoof).html);
  });

  it("that the preview could only show as text cannot be held", async () => {
    const deep = `${"<div>".repeat(5000)}x${"</div>".repeat(5000)}`;
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [bob.address], subject: "Deep", html: deep });
    const err = await refusal(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id });
    expect(err.code).toBe("validation_error");
    expect(err.message).toMatch(/^html: .*could not see what they approve/);
    expect((await heldRow(d.draft_id)).sendStatus).not.toBe("pending_approval");
  });
});
