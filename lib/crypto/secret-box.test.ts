import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";

const slot = { table: "sources", id: "src_1", column: "secret_enc" };

describe("secret box", () => {
  it("opens a secret only in the slot it was sealed for", () => {
    const sealed = encryptSecret("s3cret", slot);
    expect(sealed).toMatch(/^v2\./);
    expect(decryptSecret(sealed, slot)).toBe("s3cret");
    for (const other of [
      { ...slot, table: "mail_relays" },
      { ...slot, id: "src_2" },
      { ...slot, column: "previous_secret_enc" },
      // Parts are kept apart: moving a character from one to the next names another slot.
      { table: "sources", id: "src_1secret", column: "_enc" },
    ]) {
      expect(() => decryptSecret(sealed, other)).toThrow(UnreadableSecretError);
    }
  });

  it("refuses altered, truncated and unsealed values by name", () => {
    const sealed = encryptSecret("s3cret", slot);
    // A character in the middle, changed for sure: the last one's low bits are padding, and picking the new
    // character by looking at another one left it unchanged one time in 64.
    const at = Math.floor(sealed.length / 2);
    const flipped = `${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`;
    for (const bad of [flipped, sealed.slice(0, 10), "v2.", "s3cret", "v3.abc"]) {
      expect(() => decryptSecret(bad, slot)).toThrow(/sources\.secret_enc of src_1 cannot be decrypted/);
    }
  });
});
