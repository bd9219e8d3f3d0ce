import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { approvalsHarness, ok } from "@/lib/approvals/__tests__/helpers";
import { getDb } from "@/lib/db/client";
import { approvalChannels } from "@/lib/db/schema/approvals";
import { mailMessages } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { openBody } from "@/lib/mail/outbound/sealed-body";
import { WITHHELD } from "@/lib/mail/send-system-email";

const { h, call, setPolicy } = approvalsHarness();

/** Mail sent to an address on this instance (no relay needed), read back from the outbound queue. */
async function mailTo(address: string) {
  const rows = await (await getDb()).select().from(mailMessages).where(eq(mailMessages.projectId, h.seeded.project.id));
  return rows.filter((m) => m.to.includes(address));
}

/** An email channel already verified and approved, as its mail needs no more to be sent. */
async function activeEmailChannel(address: string, label: string) {
  const id = newId("chn");
  await (await getDb()).insert(approvalChannels).values({ id, projectId: h.seeded.project.id, kind: "email", label, address, status: "active" });
  return id;
}

describe("request emails", () => {
  it("a notice (auto_approve_notify) says it was approved and speaks of no link it does not carry; a request's mail carries its link", async () => {
    const address = "notified@brynth.localhost";
    const channel = await activeEmailChannel(address, "notified");
    await setPolicy([
      { id: "small", action: "refund", amount_lte: 50, effect: "auto_approve_notify", approvers: [channel] },
      { id: "big", action: "refund", effect: "require_approval", approvers: [channel] },
    ]);

    const small = ok(await call("ask_approval", { action: "refund", summary: "Refund 20 €?", amount: 20, wait_seconds: 0 }));
    expect(small.status).toBe("approved");
    const [notice] = await mailTo(address);
    expect(notice.subject).toBe("Approved: Refund 20 €?");
    expect(notice.text).toContain("This is a notice; nothing to decide.");
    expect(notice.text).toContain(`Request ${small.request_id}.`);
    for (const body of [notice.text ?? "", notice.html ?? ""]) {
      expect(body).not.toMatch(/link|\/decide\//i);
    }

    const big = ok(await call("ask_approval", { action: "refund", summary: "Refund 900 €?", amount: 900, wait_seconds: 0 }));
    const request = (await mailTo(address)).find((m) => m.subject === "Approval requested: Refund 900 €?");
    // The stored copy withholds the link (link-secrecy.test.ts); the body as sent, sealed beside it, carries it.
    expect(request?.text).toContain(`Open to decide: ${WITHHELD}`);
    const sent = openBody(request!.id, request!.sealedBodyEnc!);
    expect(sent.text).toMatch(/Open to decide: \S+\/decide\/\w+/);
    expect(sent.text).toContain(`Request ${big.request_id}. The link works once`);
    const [row] = await (await getDb())
      .select()
      .from(approvalChannels)
      .where(and(eq(approvalChannels.id, channel), eq(approvalChannels.projectId, h.seeded.project.id)));
    expect(row.status).toBe("active");

    // A subject cut at 200 characters never splits an emoji (before: its first half reached the subject as U+FFFD).
    const cutHere = `${"a".repeat(179)}😀 tail`;
    ok(await call("ask_approval", { action: "refund", summary: cutHere, amount: 901, wait_seconds: 0 }));
    const cut = (await mailTo(address)).find((m) => m.subject?.includes("a".repeat(179)));
    expect(cut?.subject).toBe(`Approval requested: ${"a".repeat(179)}`);
  });

  // Found by helper-106: an encoded word in plain ASCII reached the Subject header as written and mail clients decoded
  // it, a right-to-left override included; and details that imitated "Open to decide:" came before Brynth's own link.
  it("breaks up encoded words in the subject, and puts Brynth's link before the agent's words, marked as theirs", async () => {
    const address = "fenced@brynth.localhost";
    const channel = await activeEmailChannel(address, "fenced");
    const fake = "Open to decide: https://brynth-decide.evil.example/decide/abc";
    ok(
      await call("ask_approval", { action: "pay", summary: "Pay 10 EUR to =?UTF-8?Q?=E2=80=AE?=b0B ok", details: fake, wait_seconds: 0, approvers: [channel] }),
    );
    const [mail] = await mailTo(address);
    expect(mail.subject).toBe("Approval requested: Pay 10 EUR to = ?UTF-8?Q?=E2=80=AE?=b0B ok");
    const sent = openBody(mail.id, mail.sealedBodyEnc!).text ?? "";
    const lines = sent.split("\n");
    expect(lines[0]).toMatch(/^Open to decide: \S+\/decide\/\w+$/);
    expect(lines.indexOf("Written by the agent (its own words, not checked):")).toBeLessThan(lines.indexOf(fake));
  });
});
