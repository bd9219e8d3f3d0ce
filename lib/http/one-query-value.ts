import { fieldError } from "@/lib/disk/field-error";

/**
 * The one value of a query parameter that takes one, refusing it given twice (`?limit=5&limit=50`), as a
 * validation_error naming it as the caller wrote it: reading the last (or first) value gave a caller, or a proxy
 * appending its own, a result for arguments it did not send. A list parameter repeats its key and is read whole.
 */
export function oneQueryValue(key: string, values: string[]): string {
  if (values.length > 1) {
    throw fieldError(key, `given ${values.length} times in the query; it takes one value`, `Send ${key} once; only a list argument repeats its key.`);
  }
  return values[0];
}
