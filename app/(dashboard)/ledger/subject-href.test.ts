import { describe, expect, it } from "vitest";
import { subjectHref } from "@/components/ledger/subject-href";

describe("subjectHref", () => {
  it("links each id kind to its screen", () => {
    expect(subjectHref("approval.decide", "req_01JABCDEFGH")).toBe("/approvals/req_01JABCDEFGH");
    expect(subjectHref("event.ack", "evt_01JABCDEFGH")).toBe("/events/evt_01JABCDEFGH");
    expect(subjectHref("key.create", "key_01JABCDEFGH")).toBe("/api-keys?revoked=1#key_01JABCDEFGH");
    expect(subjectHref("message.send", "msg_01JABCDEFGH")).toBe("/mail/outbound/msg_01JABCDEFGH");
    expect(subjectHref("draft.create", "drf_01JABCDEFGH")).toBe("/mail/drafts?tab=all&draft=drf_01JABCDEFGH");
    expect(subjectHref("webhook.create", "whk_01JABCDEFGH")).toBe("/mail/webhooks?webhook=whk_01JABCDEFGH");
  });

  it("links disk subjects by the op's family: keys, task states, and a path's folder", () => {
    expect(subjectHref("kv.set", "config/theme")).toBe("/disk?tab=keys&key=config%2Ftheme");
    expect(subjectHref("state.save", "task-42")).toBe("/disk?tab=states&key=task-42");
    expect(subjectHref("file.put", "reports/2026/q1.pdf")).toBe("/disk?tab=files&dir=reports%2F2026%2F");
    expect(subjectHref("file.get", "top.txt")).toBe("/disk?tab=files");
  });

  it("leaves subjects without a screen, and empty ones, unlinked", () => {
    expect(subjectHref("file.put", "upl_01JABCDEFGH")).toBeNull();
    expect(subjectHref("owner.login", "ses_01JABCDEFGH")).toBeNull();
    expect(subjectHref("tool.call", "something else")).toBeNull();
    expect(subjectHref("kv.set", null)).toBeNull();
  });
});
