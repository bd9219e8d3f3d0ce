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

describe("IPv6 forms that carry an IPv4 address, or reach a translator inside the network", () => {
  it.each([
    "2002:7f00:1::", // 6to4 of 127.0.0.1
    "2002:7f00:0001:0:0:0:0:1",
    "2002:a00:1::", // 10.0.0.1
    "2002:a9fe:a9fe::", // 169.254.169.254
    "2002:c0a8:101::", // 192.168.1.1
    "2002::", // 0.0.0.0
    "::7f00:1", // IPv4-compatible 127.0.0.1
    "::127.0.0.1",
    "::8.8.8.8",
    "64:ff9b:1::7f00:1", // local-use NAT64 (RFC 8215)
    "64:ff9b:1::808:808",
    "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo
    "fec0::1", // site-local
  ])("blocks %s", (ip) => expect(isBlockedAddress(ip)).toBe(true));
  it.each(["2002:808:808::", "2002:5db8:d822::1", "2001:4860:4860::8888", "2606:4700:4700::1111"])("allows %s", (ip) =>
    expect(isBlockedAddress(ip)).toBe(false),
  );
  it("refuses a URL naming one", () => {
    expect(outboundUrlProblem("https://[2002:7f00:1::]/hook")).toMatch(/private/);
    expect(outboundUrlProblem("https://[::7f00:1]/hook")).toMatch(/private/);
    expect(outboundUrlProblem("https://[64:ff9b:1::a9fe:a9fe]/hook")).toMatch(/private/);
    expect(outboundUrlProblem("https://[2002:808:808::1]/hook")).toBeNull();
  });
});
