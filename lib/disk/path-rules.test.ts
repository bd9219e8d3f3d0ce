import { describe, expect, it } from "vitest";
import { keyProblem } from "@/lib/disk/key-rules";
import { checkedDiskPath, diskPath, diskPrefix, pathProblem, pathText, stripRef, targetOf } from "@/lib/disk/path-rules";
import { safeAttachmentName } from "@/lib/disk/save-attachment";
import { decodeBase64 } from "@/lib/disk/file-input";

describe("pathProblem", () => {
  it.each([
    ["reports/2026-09.pdf"],
    ["a"],
    ["ünïcode/名前.txt"],
    ["dots.in.name/..hidden/a..b"],
    ["with space/and%percent"],
    ["%2e%2e.txt/100%25"],
    ["a/%2e%zz"],
    [`${"s".repeat(255)}/x`],
  ])("accepts %s", (p) => expect(pathProblem(p)).toBeNull());

  it.each([
    ["", /empty/],
    ["..", /cannot be named \. or \.\.$/],
    [".", /cannot be named \. or \.\.$/],
    ["../x", /cannot be named \. or \.\.$/],
    ["a/../b", /cannot be named \. or \.\.$/],
    ["a/./b", /cannot be named \. or \.\.$/],
    ["a/..", /cannot be named \. or \.\.$/],
    ["%2e%2e/x", /percent-encoding \(%2e, %2f\)/],
    ["%2E", /percent-encoding \(%2e, %2f\)/],
    ["a/.%2e/b", /percent-encoding \(%2e, %2f\)/],
    ["a/%2E./b", /percent-encoding \(%2e, %2f\)/],
    ["%2e%2e%2fx", /percent-encoding \(%2e, %2f\)/],
    ["a%2F..%2Fb", /percent-encoding \(%2e, %2f\)/],
    ["%2e%2e/50%", /percent-encoding \(%2e, %2f\)/],
    ["a//b", /name cannot be empty: no \/\/ and no \/ at the end/],
    ["a/", /name cannot be empty: no \/\/ and no \/ at the end/],
    ["/etc/passwd", /^a path cannot start with \//],
    ["a\\b", /cannot contain a backslash/],
    ["..\\..\\x", /cannot contain a backslash/],
    ["a\u0000b", /cannot contain control characters/],
    ["a\u001fb", /cannot contain control characters/],
    ["a\u0085b", /cannot contain control characters/],
    ["a\ud800", /not valid text/],
    ["x".repeat(1025), /full path .* at most 1024 bytes/],
    ["é".repeat(513), /full path .* at most 1024 bytes/],
    [`${"s".repeat(256)}/a`, /^a file or folder name can be at most 255 bytes$/],
    [`a/${"é".repeat(128)}`, /^a file or folder name can be at most 255 bytes$/],
  ])("refuses %j", (p, why) => expect(pathProblem(p)).toMatch(why));
});

describe("references and targets", () => {
  it("strips disk:// and tells attachments from files", () => {
    expect(stripRef("disk://a/b")).toBe("a/b");
    expect(stripRef("a/b")).toBe("a/b");
    expect(targetOf("evt_1/x/y.pdf")).toEqual({ kind: "attachment", path: "evt_1/x/y.pdf", eventId: "evt_1", name: "x/y.pdf" });
    expect(targetOf("evt_1")).toBeNull();
    expect(targetOf("events/x")).toEqual({ kind: "file", path: "events/x" });
  });
});

describe("diskPath", () => {
  it("spells a file's path in NFC, with or without disk://, and leaves an inbound attachment's name as the event gave it", () => {
    expect(diskPath("notes/cafe\u0301.txt")).toBe("notes/caf\u00e9.txt");
    expect(diskPath("disk://notes/cafe\u0301.txt")).toBe("notes/caf\u00e9.txt");
    expect(diskPath("notes/caf\u00e9.txt")).toBe("notes/caf\u00e9.txt");
    expect(diskPath("\u212b/x")).toBe("\u00c5/x");
    expect(diskPath("evt_1/cafe\u0301.txt")).toBe("evt_1/cafe\u0301.txt");
    expect(diskPrefix("notes/cafe\u0301")).toBe("notes/caf\u00e9");
  });
});

describe("checkedDiskPath and pathText", () => {
  it("check a path as stored (NFC), not as sent: NFC can lengthen a name and shorten a decomposed one", () => {
    expect(checkedDiskPath("disk://notes/cafe\u0301.txt")).toBe("notes/caf\u00e9.txt");
    // 255 bytes as sent, 510 in NFC.
    expect(() => checkedDiskPath(`${"\u0958".repeat(85)}/a`)).toThrow(/^path: a file or folder name can be at most 255 bytes$/);
    // A valid path sent decomposed (NFD), as the dashboard's actions and email_send's attachments take it: 1,504
    // characters for 1,004 bytes stored. Text that cannot fit even in NFC is refused before normalising.
    const nfd = Array.from({ length: 5 }, () => "\u01D6".repeat(100))
      .join("/")
      .normalize("NFD");
    expect(pathText().safeParse(nfd).success).toBe(true);
    expect(checkedDiskPath(nfd)).toBe(nfd.normalize("NFC"));
    expect(pathText().safeParse("x".repeat(4104)).error?.issues[0].message).toBe("a full path (folders and file name together) can be at most 1024 bytes");
  });
});

describe("keyProblem", () => {
  it("counts bytes, not characters, and refuses control characters", () => {
    expect(keyProblem("é".repeat(256))).toBeNull();
    expect(keyProblem("é".repeat(257))).toMatch(/512 bytes/);
    expect(keyProblem("a\u007f")).toMatch(/control/);
    expect(keyProblem("../anything/goes")).toBeNull();
  });
});

describe("safeAttachmentName", () => {
  it.each([
    ["report.pdf", "report.pdf"],
    ["../../etc/passwd", ".._.._etc_passwd"],
    ["a\\b", "a_b"],
    ["..", "attachment"],
    ["", "attachment"],
    [null, "attachment"],
    ["tab\there", "tabhere"],
  ])("%j → %j", (raw, safe) => expect(safeAttachmentName(raw)).toBe(safe));
});

describe("decodeBase64", () => {
  it("is strict about the alphabet and padding", () => {
    expect(Buffer.from(decodeBase64("aGk=")).toString()).toBe("hi");
    expect(Buffer.from(decodeBase64("aGVs\nbG8=")).toString()).toBe("hello");
    for (const bad of ["aGk", "aG k=", "aGk=aGk=", "a-_=", "====", "aGk==="]) expect(() => decodeBase64(bad)).toThrow(/content_base64/);
  });
});
