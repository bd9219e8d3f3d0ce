import { describe, expect, it } from "vitest";
import type { MailAuthVerdicts } from "@/lib/db/schema/mail";
import { categorizeInbound, inboundLabels } from "@/lib/mail/inbound/categorize-inbound";

const auth = (spf: string, dkim: string, dmarc: string, local?: boolean): MailAuthVerdicts => ({ spf, dkim, dmarc, ...(local ? { local } : {}) });
const category = (a: MailAuthVerdicts, o: { blocked?: boolean; spamFlagged?: boolean; trustedRelay?: boolean } = {}) =>
  categorizeInbound({ blocked: false, spamFlagged: false, trustedRelay: false, ...o, auth: a });

describe("inbound categories", () => {
  it("calls mail unauthenticated on a DMARC fail, an outright SPF or DKIM fail with nothing else passing, or no pass at all", () => {
    expect(category(auth("pass", "pass", "fail"))).toBe("unauthenticated");
    expect(category(auth("fail", "none", "none"))).toBe("unauthenticated");
    expect(category(auth("none", "fail", "none"))).toBe("unauthenticated");
    expect(category(auth("softfail", "none", "none"))).toBe("unauthenticated");
    expect(category(auth("temperror", "temperror", "temperror"))).toBe("unauthenticated");
    expect(category(auth("fail", "pass", "pass"))).toBe("normal");
    expect(category(auth("pass", "fail", "none"))).toBe("normal");
    expect(category(auth("pass", "none", "none"))).toBe("normal");
  });

  it("never calls mail between this instance's own mailboxes unauthenticated", () => {
    expect(category(auth("none", "none", "fail", true))).toBe("normal");
  });

  it("ranks blocked over unauthenticated over spam, and believes spam flags only from a trusted relay", () => {
    expect(category(auth("fail", "none", "fail"), { blocked: true, spamFlagged: true, trustedRelay: true })).toBe("blocked");
    expect(category(auth("fail", "none", "fail"), { spamFlagged: true, trustedRelay: true })).toBe("unauthenticated");
    expect(category(auth("pass", "pass", "pass"), { spamFlagged: true, trustedRelay: true })).toBe("spam");
    expect(category(auth("pass", "pass", "pass"), { spamFlagged: true })).toBe("normal");
  });

  it("labels inbound mail received and unread, plus its category when it is not normal", () => {
    expect(inboundLabels("normal")).toEqual(["received", "unread"]);
    expect(inboundLabels("spam")).toEqual(["received", "unread", "spam"]);
  });
});
