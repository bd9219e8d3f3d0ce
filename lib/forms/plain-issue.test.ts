import { describe, expect, it } from "vitest";
import { z } from "zod";
import { detailFieldErrors, plainFieldErrors, sentence } from "@/lib/forms/plain-issue";

const errorsOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected a failure");
  return plainFieldErrors(parsed.error);
};

describe("plainFieldErrors: each field's issue in plain words", () => {
  const form = z.object({
    name: z.string().trim().min(1).max(100),
    email: z.email(),
    url: z.url(),
    scopes: z.array(z.string()).min(1),
    limit: z.number().int().max(500),
    kind: z.enum(["a", "b"]),
    project: z.string().min(1, "name the project"),
  });
  const value = { name: "x".repeat(101), email: "nope", url: "not a url", scopes: [], limit: 501, kind: "c", project: "" };

  it("rewrites zod's defaults and keeps a schema's own message, capitalised", () => {
    expect(errorsOf(form, value)).toEqual({
      name: "Use at most 100 characters.",
      email: "Enter an email address.",
      url: "Enter a URL.",
      scopes: "Choose at least one.",
      limit: "Use a number no larger than 500.",
      kind: "Choose one of the offered options.",
      project: "Name the project.",
    });
  });

  it("says an empty or missing field needs filling in, with no raw zod text and no field prefix anywhere", () => {
    const errors = errorsOf(form, { ...value, name: "  " });
    expect(errors.name).toBe("Fill this in.");
    const missing = errorsOf(z.object({ name: z.string() }), {});
    expect(missing.name).toBe("Fill this in.");
    for (const text of Object.values(errors)) {
      expect(text).toMatch(/^[A-Z]/);
      expect(text).not.toMatch(/Too big|Too small|expected|Invalid|^\w+:/);
    }
  });
});

describe("detailFieldErrors: an AppError's details back onto their fields", () => {
  it("reads a list of { field, message } and one { field } object", () => {
    expect(detailFieldErrors([{ field: "token", message: "not a bot token" }], "token: not a bot token")).toEqual({ token: "Not a bot token." });
    expect(detailFieldErrors({ field: "name" }, "A source named x exists already.")).toEqual({ name: "A source named x exists already." });
    expect(detailFieldErrors([{ field: "(input)", message: "x" }], "x")).toEqual({});
    expect(detailFieldErrors(undefined, "x")).toEqual({});
  });

  it("sentence capitalises and ends with a stop once", () => {
    expect(sentence("must be in the future")).toBe("Must be in the future.");
    expect(sentence("Done?")).toBe("Done?");
    expect(sentence("gmail.com is not a domain of this project")).toBe("gmail.com is not a domain of this project.");
  });
});

describe("appErrorFieldErrors: a domain function's schema failure in plain words", () => {
  it("words the zod issues validationError keeps aside, and they never reach the rendered body", async () => {
    const { validationError } = await import("@/lib/validation");
    const { toErrorBody } = await import("@/lib/errors");
    const { appErrorFieldErrors } = await import("@/lib/forms/plain-issue");
    const parsed = z.object({ name: z.string().max(3) }).safeParse({ name: "toolong" });
    if (parsed.success) throw new Error("expected a failure");
    const err = validationError(parsed.error);
    expect(appErrorFieldErrors(err)).toEqual({ name: "Use at most 3 characters." });
    expect(JSON.stringify(toErrorBody(err).body)).not.toContain("zodIssues");
  });
});
