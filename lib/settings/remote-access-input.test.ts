import { describe, expect, it } from "vitest";
import { remoteAccessInput } from "@/lib/settings/remote-access-input";

const parse = (input: unknown) => remoteAccessInput.safeParse(input);
const issueAt = (input: unknown) => {
  const r = parse(input);
  return r.success ? null : { path: r.error.issues[0].path.join("."), message: r.error.issues[0].message };
};

describe("Settings → Remote access input", () => {
  it("takes http(s) origins and writes them canonically: lower-case host, no default port, no trailing slash", () => {
    const r = parse({ public_url: " https://Brynth.Example.COM:443/ ", allowed_origins: ["http://localhost:6274", "https://a.example", "https://a.example/"] });
    expect(r.success && r.data).toEqual({ public_url: "https://brynth.example.com", allowed_origins: ["http://localhost:6274", "https://a.example"] });
    expect(parse({ public_url: "http://10.0.0.5:8080", allowed_origins: [] }).data?.public_url).toBe("http://10.0.0.5:8080");
  });

  it("reads an empty or null public URL as 'use PUBLIC_URL'", () => {
    expect(parse({ public_url: "", allowed_origins: [] }).data?.public_url).toBeNull();
    expect(parse({ public_url: null, allowed_origins: [] }).data?.public_url).toBeNull();
  });

  it.each([
    ["https://brynth.example.com/brynth", "must have no path"],
    ["https://brynth.example.com/?x=1", "must have no query"],
    ["https://brynth.example.com?x=1", "must have no query"],
    ["https://brynth.example.com/#top", "must have no fragment"],
    ["https://user:pw@brynth.example.com", "must not carry a user name or password"],
    ["ftp://brynth.example.com", "must start with https:// or http://"],
    ["brynth.example.com", "is not a URL"],
    ["javascript:alert(1)", "must start with https:// or http://"],
  ])("refuses %s as the public URL, naming the field: %s", (value, why) => {
    const issue = issueAt({ public_url: value, allowed_origins: [] });
    expect(issue?.path).toBe("public_url");
    expect(issue?.message).toContain(why);
    expect(issue?.message).toContain(value.trim());
  });

  it("refuses a bad origin in the list by its index, an empty line, more than 20, a value over 300 characters and unknown fields", () => {
    expect(issueAt({ public_url: null, allowed_origins: ["https://ok.example", "https://x.example/path"] })).toMatchObject({ path: "allowed_origins.1" });
    expect(issueAt({ public_url: null, allowed_origins: [""] })).toMatchObject({ path: "allowed_origins.0" });
    const many = Array.from({ length: 21 }, (_, i) => `https://o${i}.example`);
    expect(issueAt({ public_url: null, allowed_origins: many })).toMatchObject({ path: "allowed_origins", message: "Use at most 20 origins." });
    expect(issueAt({ public_url: `https://${"a".repeat(300)}.example`, allowed_origins: [] })).toMatchObject({ path: "public_url" });
    expect(issueAt({ public_url: null, allowed_origins: [], publicUrl: "https://x.example" })?.message).toMatch(/publicUrl/);
    expect(issueAt({ allowed_origins: [] })).toMatchObject({ path: "public_url" });
  });
});
