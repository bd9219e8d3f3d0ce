import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formErrors } from "@/lib/forms/form-errors";
import { issueWords } from "@/lib/forms/issue-words";

describe("formErrors: an action's failure on the form's own fields", () => {
  it("puts each message on the field it names, reading a domain path by its first name", () => {
    const res = { error: "Must use https.", fieldErrors: { url: "Must use https.", "request.inbox_ids.0": "Mbx_x is not an inbox of this project." } };
    expect(formErrors(res, { url: "url", inbox_ids: "inboxIds" })).toEqual({ url: "Must use https.", inboxIds: "Mbx_x is not an inbox of this project." });
    expect(formErrors({ error: "x", fieldErrors: { "to.2": "Enter an email address." } }, ["to", "cc"])).toEqual({ to: "Enter an email address." });
  });

  it("keeps the first message per field, and what names no field of the form goes below it", () => {
    expect(formErrors({ error: "A", fieldErrors: { "to.0": "A", "to.1": "B", secret: "C" } }, ["to"])).toEqual({ to: "A", form: "C" });
  });

  it("shows the action's own line when no field is named", () => {
    expect(formErrors({ error: "No outbound mail transport is configured." }, ["address"])).toEqual({ form: "No outbound mail transport is configured." });
    expect(formErrors({ error: "Nope.", fieldErrors: { toString: "x" } }, ["name"])).toEqual({ form: "Nope." });
  });
});

describe("issueWords: a zod issue as what follows a JSON key", () => {
  const words = (schema: z.ZodType, value: unknown) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) throw new Error("expected a failure");
    return parsed.error.issues.map(issueWords);
  };

  it("says what the value must be, in words, never zod's", () => {
    const rule = z.object({
      effect: z.enum(["allow", "deny"]),
      id: z.string(),
      tool: z.union([z.enum(["a", "b"]), z.array(z.enum(["a", "b"])).min(1)]).optional(),
      amount: z.number().optional(),
      note: z.string().max(3).optional(),
      who: z.string().regex(/^chn_/, "must be a channel id").optional(),
      id2: z.string().regex(/^x/, "1 to 64 letters").optional(),
    });
    expect(words(rule, { effect: "maybe", tool: "c", amount: "1", note: "long", who: "x", id2: "y" })).toEqual([
      "must be one of allow, deny",
      "is required",
      "must be one of a, b",
      "must be a number",
      "must be at most 3 characters",
      "must be a channel id",
      "must be 1 to 64 letters",
    ]);
  });

  it("words a one-or-many value by the shape it has: a list by what is wrong with the list", () => {
    const tool = z.object({
      tool: z.union([
        z.enum(["a", "b"]),
        z
          .array(z.enum(["a", "b"]))
          .min(1)
          .max(2),
      ]),
    });
    // Before: "must be one of a, b" for each, which says nothing of the list's length.
    expect(words(tool, { tool: ["a", "b", "a"] })).toEqual(["can list at most 2"]);
    expect(words(tool, { tool: [] })).toEqual(["must list at least 1"]);
    expect(words(tool, { tool: ["a", "c"] })).toEqual(["must be one of a, b"]);
    expect(words(tool, { tool: 3 })).toEqual(["must be one of a, b"]);
  });
});
