import { fieldError } from "@/lib/disk/field-error";
import { NonFiniteNumberError, parseFiniteJson } from "@/lib/json/finite-json";
import { JSON_MAX_DEPTH, jsonTextTooDeep } from "@/lib/json/json-depth";

/**
 * A key's value as the owner typed it on the Disk screen: JSON text, nested no deeper than the API's reader lets a
 * body nest (deeper, it overflowed the stack of what walks it: "Something went wrong"). Errors name `valueJson`.
 */
export function parseValueText(text: string): unknown {
  if (jsonTextTooDeep(text)) throw fieldError("valueJson", `is nested more than ${JSON_MAX_DEPTH} levels deep`);
  try {
    return parseFiniteJson(text);
  } catch (err) {
    // As the API refuses it (read-body.ts): stored, it read back as null (found by helper-123).
    if (err instanceof NonFiniteNumberError) throw fieldError("valueJson", `holds ${err.message}`, "Write it as a string, or within ±1.7e308.");
    throw fieldError("valueJson", `is not valid JSON (${(err as Error).message})`);
  }
}
