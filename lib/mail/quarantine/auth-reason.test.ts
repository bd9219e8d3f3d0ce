import { describe, expect, it } from "vitest";
import { authReason } from "@/lib/mail/quarantine/auth-reason";

describe("authReason", () => {
  it("names the verdicts that failed, then the others", () => {
    expect(authReason({ spf: "fail", dkim: "none", dmarc: "fail" })).toBe("SPF fail, DMARC fail (DKIM none)");
    expect(authReason({ spf: "pass", dkim: "fail", dmarc: "none" })).toBe("DKIM fail (SPF pass, DMARC none)");
  });

  it("says that nothing passed when nothing failed outright", () => {
    expect(authReason({ spf: "none", dkim: "none", dmarc: "none" })).toBe("Nothing passed: SPF none, DKIM none, DMARC none");
    expect(authReason({ spf: "softfail", dkim: "", dmarc: "temperror" })).toBe("Nothing passed: SPF softfail, DKIM none, DMARC temperror");
    expect(authReason(null)).toBe("No authentication results were recorded.");
  });
});
