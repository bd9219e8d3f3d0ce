import { describe, expect, it } from "vitest";
import { isBlockedAddress, outboundUrlProblem } from "@/lib/http/outbound-address";

describe("IPv4-mapped IPv6 addresses are judged by the IPv4 address they map to", () => {
  it.each(["::ffff:8.8.8.8", "::ffff:808:808", "::FFFF:0808:0808", "0:0:0:0:0:ffff:8.8.8.8", "0:0:0:0:0:ffff:808:808"])("allows %s", (ip) =>
    expect(isBlockedAddress(ip)).toBe(false),
  );
  it.each([
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:a00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:0:0",
    "::ffff:192.168.1.1",
  ])("blocks %s", (ip) => expect(isBlockedAddress(ip)).toBe(true));

  it("accepts a URL naming a public mapped address and refuses a private one", () => {
    expect(outboundUrlProblem("https://[::ffff:8.8.8.8]/hook")).toBeNull();
    expect(outboundUrlProblem("https://[::ffff:808:808]/hook")).toBeNull();
    expect(outboundUrlProblem("https://[::ffff:127.0.0.1]/hook")).toMatch(/private/);
    expect(outboundUrlProblem("https://[::ffff:10.0.0.1]/hook")).toMatch(/private/);
    expect(outboundUrlProblem("https://[::ffff:a9fe:a9fe]/hook")).toMatch(/private/);
  });
});

describe("a trailing dot does not hide a local name", () => {
  it.each([
    "https://localhost./x",
    "https://localhost../x",
    "https://LOCALHOST./x",
    "https://a.localhost./x",
    "https://printer.local./x",
    "https://db.internal./x",
    "https://intranet./x",
  ])("refuses %s at input", (url) => expect(outboundUrlProblem(url)).toBe("must name a public host"));
  it("still accepts a fully qualified public name", () => {
    expect(outboundUrlProblem("https://example.com./x")).toBeNull();
  });
  it("refuses a private literal with a trailing dot", () => {
    expect(outboundUrlProblem("https://10.0.0.1./x")).toMatch(/private/);
  });
});
