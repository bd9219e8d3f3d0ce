import { fieldError } from "@/lib/disk/field-error";
import { JSON_MAX_DEPTH, jsonTextTooDeep } from "@/lib/json/json-depth";

/**
 * A key's value as the owner typed it on the Disk screen: JSON text, nested no deeper than the API's reader lets a
 * body nest (deeper, it overflowed the stack of what walks it: "Something went wrong"). Errors name `valueJson`.
 */
export function parseValueText(text: string): unknown {
  if (jsonTextTooDeep(text)) throw fieldError("valueJson", `is nested more than ${JSON_MAX_DEPTH} levels deep`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw fieldError("valueJson", `is not valid JSON (${(err as Error).message})`);
  }
}
