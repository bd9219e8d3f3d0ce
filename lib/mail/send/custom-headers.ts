import { z } from "zod";

const MAX_HEADERS = 20;
const VALUE_MAX_CHARS = 998;
/** RFC 7230 token characters: a header name with anything else could split or fold a header. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,76}$/;
/**
 * Agents may add only extension headers and the list headers a sender legitimately sets. Everything structural
 * (From, To, Bcc, Subject, Date, Message-ID, References, MIME and Content-*, DKIM, Received, Authentication-Results,
 * Return-Path, Sender, Auto-Submitted…) is Brynth's to write.
 */
const ALLOWED = new Set(["list-unsubscribe", "list-unsubscribe-post", "list-id", "importance", "priority", "x-priority"]);
const RESERVED_X = /^x-(brynth|spam|mailer-daemon|original-|forwarded-|ms-exchange)/i;

const shown = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** The agent's extra headers: names from the allow-list (X-… and list headers), values one line; errors name `headers.<name>`. */
export const customHeadersField = z
  .record(z.string(), z.string())
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_HEADERS) ctx.addIssue({ code: "custom", message: `at most ${MAX_HEADERS} headers (${names.length} given)` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      const value = headers[name];
      if (!TOKEN.test(name)) ctx.addIssue({ code: "custom", path: [name], message: `${shown(name)} is not a header name (letters, digits and - only)` });
      else if (seen.has(lower)) ctx.addIssue({ code: "custom", path: [name], message: "is given twice (header names ignore case)" });
      else if (!(lower.startsWith("x-") || ALLOWED.has(lower)) || RESERVED_X.test(lower))
        ctx.addIssue({ code: "custom", path: [name], message: `is reserved: only X-… headers and ${[...ALLOWED].join(", ")} may be set` });
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point of this check
      else if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
        ctx.addIssue({ code: "custom", path: [name], message: "must be one line: no line breaks or control characters" });
      else if (value.length > VALUE_MAX_CHARS) ctx.addIssue({ code: "custom", path: [name], message: `is longer than ${VALUE_MAX_CHARS} characters` });
      // A header line folds at spaces only: an unbroken run as long as a line went out past RFC 5322's 998 (found
      // by helper-118), and relays that rewrap it break the signature.
      else if (/\S{900}/.test(value))
        ctx.addIssue({ code: "custom", path: [name], message: "has a run of 900 or more characters without a space, longer than a header line can hold" });
      seen.add(lower);
    }
  })
  .describe(`Up to ${MAX_HEADERS} extra headers: X-… names and List-Unsubscribe(-Post), List-Id, Importance, Priority; one-line values.`);
