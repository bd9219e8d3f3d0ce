import { describe, expect, it } from "vitest";
import { authReason } from "@/lib/mail/quarantine/auth-reason";

describe("authReason", () => {
  it("names the verdicts that failed, then the others", () => {
    expect(authReason({ spf: "fail", dkim: "none", dmarc: "fail" })).toBe("SPF fail, DMARC fail (DKIM none)");
    expect(authReason({ spf: "pass", dkim: "fail", dmarc: "none" })).toBe("DKIM fail (SPF pass, DMARC none)");
    // The reason this instance failed DMARC itself (from-agreement.ts) comes after.
    expect(
      authReason({ spf: "pass", dkim: "none", dmarc: "fail", details: "brynth: 2 From addresses: DMARC vouches for none of them\nReceived-SPF: pass" }),
    ).toBe("DMARC fail (SPF pass, DKIM none): 2 From addresses: DMARC vouches for none of them");
  });

  it("says that nothing passed when nothing failed outright", () => {
    expect(authReason({ spf: "none", dkim: "none", dmarc: "none" })).toBe("Nothing passed: SPF none, DKIM none, DMARC none");
    expect(authReason({ spf: "softfail", dkim: "", dmarc: "temperror" })).toBe("Nothing passed: SPF softfail, DKIM none, DMARC temperror");
    expect(authReason(null)).toBe("No authentication results were recorded.");
  });
});
