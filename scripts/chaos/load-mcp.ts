import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectMcp } from "../../lib/testing/mcp-client";
import { outcomes } from "./http-call";
import type { KvBook } from "./kv-book";

/** Brynth stores MCP sessions in PostgreSQL, so any instance serves any session (ARCHITECTURE §2, §4). */
const CALL_TIMEOUT_MS = 15_000;

/**
 * `clients` MCP SDK clients through the proxy, which sends each request to the next instance, so every session moves
 * between instances all the time. Each client is the only writer of one key: kv_set of the next sequence number,
 * then kv_get, which must read it or newer; after a kv_set without an answer it moves to a new key (see load-kv.ts).
 * A session is opened once; a session refused as unknown (404) would mean the design's promise broke, and is
 * counted and replaced.
 */
export async function mcpLoad(opts: { base: string; key: string; clients: number; book: KvBook; until: () => boolean }) {
  const answers = outcomes();
  const tally = { sessions_opened: 0, sessions_lost_404: 0, calls_ok: 0 };
  const sessionIds: string[] = [];
  const open = async () => {
    const { client, transport } = await connectMcp(opts.base, opts.key);
    tally.sessions_opened++;
    if (transport.sessionId) sessionIds.push(transport.sessionId);
    return client;
  };
  const callTool = async (client: Client, name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    if (res.isError) {
      // The error's JSON, `{ name, code, message, fix }`, is the text item.
      const text = (res.content as { type: string; text?: string }[])[0]?.text ?? "";
      const code = /"code":\s*"([^"]+)"/.exec(text)?.[1] ?? "error";
      throw Object.assign(new Error(text), { code: `tool_${code}` });
    }
    tally.calls_ok++;
    answers.add("ok");
    return res.structuredContent as Record<string, unknown>;
  };
  const session = async (c: number) => {
    let client: Client | null = null;
    let generation = 0;
    for (let seq = 1; !opts.until(); seq++) {
      const key = `chaos/mcp-${c}-${generation}`;
      try {
        client ??= await open();
        opts.book.attempt(key, seq);
        await callTool(client, "kv_set", { key, value: { client: c, seq } }).catch((err) => {
          opts.book.unanswered();
          generation++;
          throw err;
        });
        opts.book.saved(key, seq);
        const got = await callTool(client, "kv_get", { key });
        opts.book.read(key, (got.value as { seq?: number } | null)?.seq ?? null, seq);
        if (seq % 10 === 0) await callTool(client, "whoami", {});
      } catch (err) {
        const code = (err as { code?: number | string }).code;
        answers.add(`error_${code ?? (err as Error).name}`);
        if (code === 404) {
          tally.sessions_lost_404++;
          await client?.close().catch(() => {});
          client = null;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await client?.close().catch(() => {});
  };
  await Promise.all(Array.from({ length: opts.clients }, (_, c) => session(c)));
  return { tally, answers: answers.counts, sessionIds };
}
