import { describe, expect, it } from "vitest";
import { addressBlock } from "@/lib/http/address-block";
import { addressLimit } from "@/lib/http/address-limit";

describe("the block a client controls", () => {
  it("is the IPv4 address itself, and the IPv4 address an IPv4-mapped IPv6 address stands for", () => {
    expect(addressBlock("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBlock("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBlock("::ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("is an IPv6 address's /64, in every spelling", () => {
    const block = "2001:db8:aa:bb::/64";
    for (const a of ["2001:db8:aa:bb::1", "2001:0db8:00aa:00bb:ffff:1:2:3", "2001:DB8:AA:BB:0:0:0:9", "2001:db8:aa:bb::1.2.3.4", "2001:db8:aa:bb::1%eth0"]) {
      expect(addressBlock(a), a).toBe(block);
    }
    expect(addressBlock("2001:db8:aa:bc::1")).toBe("2001:db8:aa:bc::/64");
    expect(addressBlock("::1")).toBe("0:0:0:0::/64");
    expect(addressBlock("fe80::1")).toBe("fe80:0:0:0::/64");
  });
});

describe("the per-address connection cap", () => {
  it("counts a whole IPv6 /64 as one client, and frees a place when an admitted session closes", () => {
    const limit = addressLimit<string>(2);
    expect(limit.admit("a", "2001:db8::1")).toBe(true);
    expect(limit.admit("b", "2001:db8::2")).toBe(true);
    expect(limit.admit("c", "2001:db8::ffff:3")).toBe(false);
    expect(limit.admit("d", "2001:db8:0:1::1")).toBe(true);
    limit.release("c");
    expect(limit.admit("e", "2001:db8::5")).toBe(false);
    limit.release("a");
    expect(limit.admit("f", "2001:db8::6")).toBe(true);
  });
});
