import { storableTime, unstorableText } from "@/lib/db/storable";
import { AppError } from "@/lib/errors";

/** Opaque page cursor: the (received_at, id) of the last event shown, so pages stay stable while events arrive. */
export function encodeCursor(receivedAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([receivedAt.toISOString(), id])).toString("base64url");
}

export function decodeCursor(cursor: string): { receivedAt: Date; id: string } {
  try {
    const [iso, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const receivedAt = new Date(String(iso));
    // Checked as the query will use them: a hand-made cursor with a NUL in its id or the year 0 failed the query.
    if (typeof iso === "string" && typeof id === "string" && storableTime(receivedAt.getTime()) && unstorableText(id) === null) return { receivedAt, id };
  } catch {}
  throw new AppError("validation_error", "cursor: not a cursor this API issued.", {
    fix: "Pass the `next_cursor` of the previous page unchanged, or omit cursor to start from the beginning.",
    details: [{ field: "cursor", message: "not a cursor this API issued" }],
  });
}
