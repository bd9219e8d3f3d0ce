import { z } from "zod";
import { wellFormed } from "@/lib/text/well-formed";

/**
 * Why PostgreSQL cannot store or match this text as given, or null: a NUL character (U+0000), which text and jsonb
 * refuse, or a lone surrogate, which jsonb refuses and text would turn into U+FFFD. Input that reaches a query must
 * be checked against it first, or the statement fails inside the database as a 500.
 */
export const unstorableText = (s: string): string | null =>
  s.includes("\u0000") ? "a NUL character (U+0000)" : !wellFormed(s) ? "a lone surrogate (a character that is not valid Unicode text)" : null;

const EARLIEST = Date.parse("0001-01-01T00:00:00Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * Whether PostgreSQL's timestamptz reads this time back as itself: years 1–9999 in UTC. JavaScript dates go further
 * (year 0, year 275760, `9999-12-31T23:59:59-14:00`, which is year 10000), and such a time in a query fails it.
 */
export const storableTime = (ms: number): boolean => ms >= EARLIEST && ms <= LATEST;

/**
 * A string schema that refuses, on its own field, text PostgreSQL cannot store (unstorableText): for input that
 * reaches a query without passing the tools' own check (parseToolArgs), such as a form or a stream's subscription.
 */
export const storableString = () =>
  z.string().superRefine((s, ctx) => {
    const problem = unstorableText(s);
    if (problem) ctx.addIssue({ code: "custom", message: `must not contain ${problem}` });
  });
