import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError, type StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { LATEST_PROTOCOL } from "@/lib/mcp/protocol";
import { startApiServer } from "@/lib/testing/api-server";
import { seedEvents, seedSource } from "@/lib/testing/events";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { assertFuzz, FUZZ_TEST_TIMEOUT_MS } from "@/lib/testing/fuzz/fuzz-settings";
import { fuzzSummary } from "@/lib/testing/fuzz/fuzz-summary";
import { watchProcessFaults } from "@/lib/testing/fuzz/process-faults";
import { changedTables, projectFingerprint, type Fingerprint } from "@/lib/testing/fuzz/project-fingerprint";
import { rawHttp, type RawResponse } from "@/lib/testing/fuzz/raw-http";
import { percentEncode } from "@/lib/testing/fuzz/percent-encode";
import { markedArgs, rawUrlValue, spliceRaw, toolCase, type ToolCase } from "@/lib/testing/fuzz/tool-cases";
import { tools } from "@/lib/tools/registry";
import type { AnyTool } from "@/lib/tools/run-tool";
import { keyPlan } from "@/lib/tools/casing/key-plan";
import { toSnakeKeys } from "@/lib/tools/casing/rename-keys";
import { seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";

/**
 * Every tool of the registry, over MCP (the SDK client, or raw JSON-RPC for bytes no client sends) and REST (raw
 * HTTP), with generated inputs from its schema and adversarial mutations of them (tool-cases.ts). For every call:
 * no HTTP 500, no JSON-RPC internal error (-32603) or `internal_error` tool result, no transport failure, nothing
 * unhandled or logged as unexpected in the server's process (here); and a refused call changes none of the
 * project's rows (runTool writes no ledger entry for a refused call, so there is nothing to allow for): the
 * project's fingerprint (project-fingerprint.ts: count and hash of each table's rows) is taken before every call
 * and compared after each refused one — every refused call is checked, none sampled, since each project stays small.
 * Each tool gets a project of its own, so one tool's rows never blur another's check.
 */

/** Answers that refuse a call but write on purpose: email_send's draft awaiting approval is the refusal's subject. */
const WRITING_REFUSALS = new Set(["approval_required"]);
const CALL_TIMEOUT_MS = 20_000;

let server: Awaited<ReturnType<typeof startApiServer>>;
const faults = watchProcessFaults();
const summary = fuzzSummary("tools");

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  faults.stop();
  summary.write();
  await server?.close();
});

interface Fixture {
  projectId: string;
  secret: string;
  mcp: Client;
  transport: StreamableHTTPClientTransport;
  known: Record<string, string[]>;
}

/** A project with a key, an MCP session, a source and a pending event, so generated calls can meet real rows. */
async function fixture(tool: AnyTool): Promise<Fixture> {
  const seeded = await seedProject();
  await seedSource(seeded.actor, { name: "fuzz-src" });
  const [eventId] = await seedEvents(seeded.project.id, [{ type: "fuzz.seeded", payload: { n: 1 } }]);
  const { client, transport } = await connectMcp(server.url, seeded.secret);
  const mail = tool.family === "mailboxes" ? await seedReceivedMail(seeded.project.id, (await seedMailbox(seeded.project.id)).id) : null;
  const known = knownFor(tool, { eventId, source: "fuzz-src", mail });
  return { projectId: seeded.project.id, secret: seeded.secret, mcp: client, transport, known };
}

/**
 * Real values for the fields of one tool, by what its fields mean there (a `name` is a source to remove, not one to
 * add): the seeded event's id, source and type, so an inbox_wait given both answers at once instead of waiting its
 * second; the example's kv key and file path.
 */
function knownFor(tool: AnyTool, seeded: { eventId: string; source: string; mail: MailFixture | null }): Record<string, string[]> {
  const { mail } = seeded;
  if (mail) {
    return { inboxId: [mail.inbox, mail.address], threadId: [mail.thread], messageId: [mail.message], attachmentId: [mail.attachment] };
  }
  if (tool.name.startsWith("inbox_")) return { event_id: [seeded.eventId], source: ["brynth"], type: ["fuzz.seeded", "fuzz.*"] };
  if (tool.name === "source_remove") return { name: [seeded.source] };
  return { key: ["examples/greeting"], task_id: ["example-task"], path: ["examples/hello.txt"] };
}

/** What a call's answer says, or why it is a failure of the property. */
interface Outcome {
  refused: boolean;
  code?: string;
  failure?: string;
}

const describeCase = (c: ToolCase) => `${c.mutation} ${JSON.stringify(markedArgs(c))?.slice(0, 300)}`;

async function callMcp(f: Fixture, tool: AnyTool, c: ToolCase): Promise<Outcome> {
  if (!c.raw) {
    try {
      const res = await f.mcp.callTool({ name: tool.name, arguments: c.args }, undefined, { timeout: CALL_TIMEOUT_MS });
      return toolResultOutcome(res);
    } catch (err) {
      // A refusal before JSON-RPC dispatch (the JSON boundary's depth limit) keeps its HTTP status: the SDK throws it.
      if (err instanceof StreamableHTTPError && err.code !== undefined && err.code >= 400 && err.code < 500) return { refused: true, code: `HTTP ${err.code}` };
      if (err instanceof McpError && err.code !== ErrorCode.InternalError) return { refused: true, code: String(err.code) };
      return { refused: true, failure: `the SDK client's call failed: ${(err as Error).message}` };
    }
  }
  const envelope = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: markedArgs(c) } };
  const res = await send(() =>
    rawHttp(server.url, {
      method: "POST",
      path: "/mcp",
      headers: {
        authorization: `Bearer ${f.secret}`,
        "content-type": "application/json",
        accept: "application/json",
        "mcp-session-id": f.transport.sessionId ?? "",
        "mcp-protocol-version": LATEST_PROTOCOL,
      },
      body: spliceRaw(JSON.stringify(envelope), c),
    }),
  );
  if ("failure" in res) return { refused: true, failure: res.failure };
  if (res.status >= 500) return { refused: true, failure: `HTTP ${res.status}: ${res.body.slice(0, 300)}` };
  let json: { error?: { code: number; message: string }; result?: unknown };
  try {
    json = JSON.parse(res.body);
  } catch {
    return { refused: true, failure: `HTTP ${res.status} with a body that is not JSON: ${res.body.slice(0, 300)}` };
  }
  if (json.error) {
    if (json.error.code === -32603) return { refused: true, failure: `JSON-RPC internal error: ${json.error.message}` };
    return { refused: true, code: String(json.error.code) };
  }
  return toolResultOutcome(json.result);
}

function toolResultOutcome(result: unknown): Outcome {
  const r = result as { isError?: boolean; content?: { text: string }[] };
  if (!r.isError) return { refused: false };
  const code = JSON.parse(r.content?.[0]?.text ?? "{}").code as string | undefined;
  if (code === "internal_error") return { refused: true, code, failure: "a tool result with internal_error" };
  return { refused: true, code };
}

/** ETags for tools with optimistic concurrency (If-Match → if_version): real-looking, weak, past any version, lists. */
const IF_MATCH = ['"1"', 'W/"1"', '"0"', '"2147483648"', '"99999999999"', "*", '"a"', '"1", "2"', ""];
const CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", ""];

const restHeaders = fc.record({ contentType: fc.constantFrom(...CONTENT_TYPES), ifMatch: fc.option(fc.constantFrom(...IF_MATCH), { freq: 2 }) });

async function callRest(f: Fixture, tool: AnyTool, c: ToolCase, http: { contentType: string; ifMatch: string | null }): Promise<Outcome> {
  const args = (c.raw?.field === null ? {} : markedArgs(c)) as Record<string, unknown>;
  // The mailbox family's REST callers write snake_case (design D4): fuzz what they would send.
  const rest = tool.family === "mailboxes" ? (toSnakeKeys(keyPlan(tool.input, "input"), args) as Record<string, unknown>) : { ...args };
  const asUrl = (name: string, v: unknown) =>
    c.raw?.field === name ? (rawUrlValue(c) ?? "") : percentEncode(typeof v === "string" ? v : v === undefined ? "" : (JSON.stringify(v) ?? String(v)));
  let path = tool.rest.path;
  for (const m of path.matchAll(/\{(\w+)\}/g)) {
    path = path.replace(m[0], asUrl(m[1], rest[m[1]]));
    delete rest[m[1]];
  }
  const bodyless = tool.rest.method === "GET" || tool.rest.method === "DELETE";
  let body: Uint8Array | undefined;
  if (bodyless) {
    const pairs = Object.entries(rest).flatMap(([k, v]) => (Array.isArray(v) ? v.map((item) => [k, item]) : [[k, v]]));
    if (pairs.length > 0) path += `?${pairs.map(([k, v]) => `${percentEncode(k as string)}=${asUrl(k as string, v)}`).join("&")}`;
    if (c.raw?.field === null) body = c.raw.bytes; // arguments that are not an object, as a body nobody reads
  } else {
    body = c.raw?.field === null ? c.raw.bytes : spliceRaw(JSON.stringify(rest), c);
  }
  const headers: Record<string, string> = { authorization: `Bearer ${f.secret}` };
  if (http.contentType) headers["content-type"] = http.contentType;
  if (http.ifMatch !== null && tool.rest.ifMatch) headers["if-match"] = http.ifMatch;
  const res = await send(() => rawHttp(server.url, { method: tool.rest.method, path: `/api/v1${path}`, headers, body }));
  if ("failure" in res) return { refused: true, failure: res.failure };
  if (res.status === 431 || res.status === 414) return { refused: true, code: String(res.status) }; // node's own limit on a 100k-character URL
  // A download (rest.respond: a raw .eml, an attachment) answers 2xx with its bytes, not JSON.
  if (tool.rest.respond && res.status >= 200 && res.status < 300) return { refused: false };
  let code: string | undefined;
  try {
    code = JSON.parse(res.body).error?.code;
  } catch {
    return { refused: true, failure: `HTTP ${res.status} with a body that is not JSON: ${res.body.slice(0, 300)}` };
  }
  if (res.status >= 500 && code !== "service_unavailable") return { refused: true, failure: `HTTP ${res.status}: ${res.body.slice(0, 300)}` };
  return { refused: res.status >= 400, code };
}

async function send(call: () => Promise<RawResponse>): Promise<RawResponse | { failure: string }> {
  try {
    return await call();
  } catch (err) {
    return { failure: `transport failure: ${(err as Error).message}` };
  }
}

/** Checks one call's outcome and, for a refused call, that the project's rows are as before it. */
async function judge(f: Fixture, tool: AnyTool, way: string, c: ToolCase, outcome: Outcome, before: Fingerprint): Promise<Fingerprint> {
  summary.count(tool.name, way, outcome.refused);
  const where = `${tool.name} over ${way}, ${describeCase(c)}`;
  // Taken first, so a failing case never leaves its faults to be blamed on the next one (shrinking runs many).
  const seen = faults.take();
  if (outcome.failure) throw new Error(`${where}: ${outcome.failure}${seen.length > 0 ? `; the server logged ${seen.join("; ")}` : ""}`);
  if (seen.length > 0) throw new Error(`${where}: the server process reported ${seen.join("; ")}`);
  const after = await projectFingerprint(f.projectId);
  if (outcome.refused && !WRITING_REFUSALS.has(outcome.code ?? "")) {
    const changed = changedTables(before, after);
    if (changed.length > 0) throw new Error(`${where}: refused (${outcome.code}) but changed rows of ${changed.join(", ")}`);
  }
  return after;
}

describe.each(tools.map((t) => [t.name, t] as const))("%s", (_name, tool) => {
  it(
    "survives generated and adversarial input over MCP and REST, and a refused call writes nothing",
    async () => {
      const f = await fixture(tool);
      try {
        const property = fc.asyncProperty(toolCase(tool, f.known), restHeaders, async (c, http) => {
          let before = await projectFingerprint(f.projectId);
          before = await judge(f, tool, "mcp", c, await callMcp(f, tool, c), before);
          await judge(f, tool, "rest", c, await callRest(f, tool, c, http), before);
        });
        await assertFuzz(tool.name, property);
        const alive = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${f.secret}` } });
        expect(alive.status).toBe(200);
        expect(faults.take()).toEqual([]);
      } finally {
        await f.mcp.close();
      }
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
