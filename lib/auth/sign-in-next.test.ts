import { describe, expect, it } from "vitest";
import { signInNext } from "@/lib/auth/sign-in-next";

describe("signInNext", () => {
  it("keeps a path of this site, with its query and fragment", () => {
    expect(signInNext("/oauth/consent?client_id=oac_1&state=a%20b")).toBe("/oauth/consent?client_id=oac_1&state=a%20b");
    expect(signInNext("/events#top")).toBe("/events#top");
    expect(signInNext("/%09/evil.example")).toBe("/%09/evil.example");
  });

  it("sends anything that a browser would read as another origin to /", () => {
    for (const next of [
      "//evil.example/x",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\\\t\\evil.example",
      "/.//evil.example/x",
      "/..//evil.example",
      "/%2e//evil.example",
      "/a/..//evil.example",
      "/./\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      " /evil",
      "",
      undefined,
    ]) {
      expect(signInNext(next), JSON.stringify(next)).toBe("/");
    }
  });
});
