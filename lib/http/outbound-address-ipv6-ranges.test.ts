import { describe, expect, it } from "vitest";
import { isBlockedAddress, outboundUrlProblem } from "@/lib/http/outbound-address";

/**
 * The IPv6 siblings of ranges already blocked, from the IANA special-purpose registry, none globally reachable
 * (found by helper-116): IPv4-translated ::ffff:0:0:0/96 (SIIT: ::ffff:0:7f00:1 is 127.0.0.1 behind a translator,
 * as NAT64 is), documentation 3fff::/20 (beside 2001:db8::/32), benchmarking 2001:2::/48 (beside 198.18.0.0/15)
 * and SRv6 5f00::/16.
 */
describe("IPv6 special-purpose ranges", () => {
  it.each(["::ffff:0:7f00:1", "::ffff:0:a9fe:a9fe", "::ffff:0:a00:1", "3fff::1", "2001:2::1", "5f00::1"])("blocks %s", (ip) =>
    expect(isBlockedAddress(ip)).toBe(true),
  );
  it("refuses a URL naming the IPv4-translated form of the metadata address", () => {
    expect(outboundUrlProblem("https://[::ffff:0:a9fe:a9fe]/latest/meta-data")).toMatch(/private/);
  });
});
