/** What the emailed-link page says when its form's POST came back with `?error=<code>`. */
const texts: Record<string, string> = {
  incomplete: "Choose an answer (and write a comment when you ask for more context).",
  ALREADY_DECIDED: "This request was already decided or has expired.",
  forbidden: "This link cannot decide any more: it was used, or its channel was removed.",
  validation_error: "That answer does not fit this request.",
  // A policy proposal approved after another version was put in force would drop that version (found by helper-103).
  CONFLICT:
    "This proposal was written against an older policy, and another version is in force now: it cannot be approved. Deny it, and ask the agent to propose again.",
};

/**
 * The text for a code from the page's URL, which anyone holding the link can edit: a code is looked up among the
 * table's own keys only. `?error=__proto__` read Object.prototype, which React cannot render: a 500 (found by
 * helper-117).
 */
export function decideErrorText(code: string | string[] | undefined): string {
  return typeof code === "string" && Object.hasOwn(texts, code) ? texts[code] : "That did not work.";
}
