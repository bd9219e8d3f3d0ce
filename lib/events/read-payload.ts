import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";

/** The stored body of an event, byte for byte (JSON text or raw bytes), for signed downloads and the raw view. */
export async function readPayload(db: Executor, opts: { projectId: string; eventId: string }): Promise<{ bytes: Uint8Array; contentType: string } | null> {
  const [row] = await db
    .select({ text: sql<string | null>`${events.payload}::text`, raw: events.raw, contentType: events.contentType })
    .from(events)
    .where(and(eq(events.id, opts.eventId), eq(events.projectId, opts.projectId)));
  if (!row) return null;
  if (row.text !== null) return { bytes: new TextEncoder().encode(row.text), contentType: "application/json" };
  return { bytes: row.raw ?? new Uint8Array(), contentType: row.contentType ?? "application/octet-stream" };
}
