import { z } from "zod";

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const PLAIN = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`);

/**
 * A plain address, `local@domain`, ASCII only: no display name, no quoted local part, no comments, no IP literals,
 * no whitespace or line breaks — nothing that could smuggle a second address or a header line.
 */
export const plainAddress = z
  .string()
  .max(254)
  .refine((v) => PLAIN.test(v) && v.indexOf("@") <= 64, "must be a plain ASCII address local@domain, without a display name");

/** A Message-ID fit for a References line: visible ASCII without angle brackets (an inbound id may smuggle `>\r\nBcc:`). */
export const SAFE_ID = /^[\x21-\x3b\x3d\x3f-\x7e]{1,250}$/;

/** One line: no CR, LF or other control characters (tab aside), so it cannot start a new header. */
export const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point of this check
    .refine((v) => !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(v), "must be one line: no line breaks or control characters");

/** At most `max` bytes of UTF-8. */
export const utf8Max = (max: number, what: string) =>
  z.string().refine((v) => Buffer.byteLength(v) <= max, `${what} must be at most ${max / 1024} KB of UTF-8`);
