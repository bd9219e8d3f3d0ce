import { sql } from "drizzle-orm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON the route answered; each test reads the fields it asserts on
  body: any;
  headers: Headers;
}

/** REST calls with a key, answering status, parsed JSON body and headers. */
export function restClient(baseUrl: string, secret: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
}

/** A tool call over MCP: `{ data }` (structuredContent) or `{ error }` (the error body). */
export function mcpCaller(client: Client) {
  return async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    const text = (res.content as { text: string }[])[0].text;
    // biome-ignore lint/suspicious/noExplicitAny: the tool's error body; each test reads the fields it asserts on
    if (res.isError) return { error: JSON.parse(text) as any, data: undefined };
    // biome-ignore lint/suspicious/noExplicitAny: the tool's structuredContent; each test reads the fields it asserts on
    return { data: res.structuredContent as any, error: undefined };
  };
}

/** The usage row and what it should be from the rows themselves: the quota bookkeeping must always match. */
export async function usageMatchesRows(projectId: string) {
  const db = await getDb();
  const [usage] = await query<{ keys: number; bytes: number }>(db, sql`select keys, bytes from disk_usage where project_id = ${projectId}`);
  const [kv] = await query<{ n: number; b: number }>(
    db,
    sql`select count(*)::int as n, coalesce(sum(size_bytes), 0)::bigint as b from kv_entries where project_id = ${projectId}`,
  );
  const [files] = await query<{ b: number }>(db, sql`select coalesce(sum(size_bytes), 0)::bigint as b from disk_files where project_id = ${projectId}`);
  return {
    usage: { keys: usage?.keys ?? 0, bytes: usage?.bytes ?? 0 },
    rows: { keys: kv.n, bytes: kv.b + files.b },
  };
}

export const setUsage = async (projectId: string, keys: number, bytes: number) =>
  query(
    await getDb(),
    sql`insert into disk_usage (project_id, keys, bytes) values (${projectId}, ${keys}, ${bytes})
        on conflict (project_id) do update set keys = excluded.keys, bytes = excluded.bytes`,
  );
