import { describe, expect, it } from "vitest";
import { principalName } from "@/lib/text/principal-name";

describe("principalName", () => {
  it("reads stored principals as names", () => {
    expect(principalName("owner:ada@example.com")).toBe("ada@example.com");
    expect(principalName("channel:Ada's phone")).toBe("Ada's phone (channel)");
    expect(principalName("policy:refunds")).toBe("Policy rule refunds");
    expect(principalName("system")).toBe("Brynth");
    expect(principalName(null)).toBe("—");
    expect(principalName("key_01ABC")).toBe("key_01ABC");
  });
});
