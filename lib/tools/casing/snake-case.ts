/**
 * The REST and result name of a declared key: `inboxId` → `inbox_id`, `messageID` → `message_id`, `HTMLBody` →
 * `html_body`, `sha256Hex` → `sha256_hex`. Digits stay with the word before them. A name already in snake_case is
 * its own result, so an output schema written in snake_case converts to itself.
 */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}
