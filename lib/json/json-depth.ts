import { AppError } from "@/lib/errors";

/**
 * How deep JSON from outside may nest, counting every array and object from the outermost. Deeper values would
 * overflow the stack of whatever walks them (schemas, the canonical digest, JSON.stringify, Postgres' json parser):
 * refused where JSON comes in (the API's reader, webhook intake), before any of them sees one.
 */
export const JSON_MAX_DEPTH = 100;

/** Throws validation_error when the JSON text in `bytes` nests deeper than JSON_MAX_DEPTH. */
export function refuseDeepJson(bytes: Uint8Array): void {
  if (nestsDeeperThan(bytes, JSON_MAX_DEPTH)) {
    throw new AppError("validation_error", `The JSON body is nested more than ${JSON_MAX_DEPTH} levels deep.`, {
      fix: `Nest arrays and objects at most ${JSON_MAX_DEPTH} levels deep.`,
    });
  }
}

/** Whether JSON text typed into a form (a kv value, a policy) nests deeper than JSON_MAX_DEPTH, as a body may not. */
export const jsonTextTooDeep = (text: string): boolean => nestsDeeperThan(Buffer.from(text), JSON_MAX_DEPTH);

const [QUOTE, BACKSLASH, OPEN_ARRAY, OPEN_OBJECT, CLOSE_ARRAY, CLOSE_OBJECT] = [0x22, 0x5c, 0x5b, 0x7b, 0x5d, 0x7d];

/**
 * Whether JSON text opens more than `max` arrays/objects at once, brackets inside strings aside. Fewer than `max`
 * brackets in all (most bodies, a large kv_set's string included) is settled by two native byte searches.
 */
function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let opens = 0;
  for (const open of [OPEN_ARRAY, OPEN_OBJECT]) {
    for (let i = buf.indexOf(open); i >= 0 && opens <= max; i = buf.indexOf(open, i + 1)) opens++;
  }
  if (opens <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}
