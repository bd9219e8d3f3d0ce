/**
 * Whether a string is valid Unicode text: no lone surrogate. JavaScript strings may hold one (JSON's `"\ud800"`
 * parses), but it has no UTF-8 form: PostgreSQL refuses it inside JSON, and text columns would store U+FFFD instead.
 */
export const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
