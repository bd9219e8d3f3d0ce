const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EVERY_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source, "g");

/**
 * Whether a string is valid Unicode text: no lone surrogate. JavaScript strings may hold one (JSON's `"\ud800"`
 * parses, and decoding UTF-16 mail makes them), but it has no UTF-8 form: PostgreSQL refuses it inside JSON, and
 * text columns would store U+FFFD instead.
 */
export const wellFormed = (s: string) => !LONE_SURROGATE.test(s);

/** The string with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder writes it. */
export const toWellFormed = (s: string) => (wellFormed(s) ? s : s.replace(EVERY_LONE_SURROGATE, "\uFFFD"));
