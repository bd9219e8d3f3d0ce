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

/** The first `max` UTF-16 units, one fewer where the cut would split a surrogate pair (an emoji) and leave half of it. */
export const sliceWhole = (s: string, max: number) => {
  const cut = s.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
};
