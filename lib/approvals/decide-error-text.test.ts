import { expect, it } from "vitest";
import { decideErrorText } from "@/lib/approvals/decide-error-text";

it("names a known code, and anything else, the object's own names included, as a plain failure", () => {
  expect(decideErrorText("ALREADY_DECIDED")).toMatch(/already decided/);
  for (const code of ["__proto__", "constructor", "toString", "hasOwnProperty", "nope", "", undefined, ["a", "b"]]) {
    expect(decideErrorText(code)).toBe("That did not work.");
  }
});
