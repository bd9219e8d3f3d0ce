import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { snakeCase } from "@/lib/tools/casing/snake-case";

describe("snakeCase", () => {
  it.each([
    ["inboxId", "inbox_id"],
    ["pageToken", "page_token"],
    ["messageId", "message_id"],
    ["ccAddresses", "cc_addresses"],
    ["includeUnauthenticated", "include_unauthenticated"],
    ["extractedHtml", "extracted_html"],
    ["messageID", "message_id"],
    ["HTMLBody", "html_body"],
    ["rawHTML", "raw_html"],
    ["sha256Hex", "sha256_hex"],
    ["base64Url", "base64_url"],
    ["line2", "line2"],
    ["ipv6Address", "ipv6_address"],
    ["q", "q"],
    ["limit", "limit"],
    ["inbox_id", "inbox_id"],
    ["next_page_token", "next_page_token"],
  ])("%s → %s", (name, snake) => {
    expect(snakeCase(name)).toBe(snake);
  });

  it("is idempotent, so a snake_case schema converts to itself", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,20}$/), (name) => {
        expect(snakeCase(snakeCase(name))).toBe(snakeCase(name));
      }),
    );
  });
});
