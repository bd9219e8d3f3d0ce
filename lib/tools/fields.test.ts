import { z } from "zod";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { isoTimestamp } from "@/lib/tools/fields";
import { parseOrThrow } from "@/lib/validation";

const input = z.object({ since: isoTimestamp.optional() }).strict();
const refusal = (since: unknown) => {
  try {
    parseOrThrow(input, { since });
  } catch (e) {
    return e as AppError;
  }
  throw new Error(`accepted ${JSON.stringify(since)}`);
};

describe("isoTimestamp", () => {
  it("accepts timestamps with an offset or Z, fractions included, and plain dates", () => {
    for (const since of ["2026-09-01T12:00:00Z", "2026-09-01T12:00:00.123456+02:00", "2026-09-01"]) {
      expect(parseOrThrow(input, { since })).toEqual({ since });
    }
  });

  it("refuses anything else with a validation_error that names the field and says what is expected", () => {
    for (const since of ["yesterday", "2026-09-01T12:00:00", "2026-13-01", "1767225600", ""]) {
      const e = refusal(since);
      expect(e).toBeInstanceOf(AppError);
      expect(e.code).toBe("validation_error");
      expect(e.details).toEqual([{ field: "since", message: expect.stringContaining("ISO 8601") }]);
      expect(e.message).toMatch(/^since: .*ISO 8601/);
    }
  });
});
