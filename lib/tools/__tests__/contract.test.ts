import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startApiServer } from "@/lib/testing/api-server";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { connectMcp } from "@/lib/testing/mcp-client";
import { allScopes } from "@/lib/keys/scopes";
import { tools } from "@/lib/tools/registry";
import { scopesOf } from "@/lib/tools/define-tool";
import type { AnyTool } from "@/lib/tools/run-tool";
import { MAILBOX_UNTRUSTED_SENTENCE, onTransport } from "@/lib/tools/define-tool";
import { keyPlan } from "@/lib/tools/casing/key-plan";
import { toSnakeKeys } from "@/lib/tools/casing/rename-keys";
import { toolView } from "@/lib/tools/casing/tool-casing";
import { fillExample, seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { getDb } from "@/lib/db/client";
import { createKey } from "@/lib/keys/create-key";
import { ownerActor } from "@/lib/owner-api/owner-actor";

/**
 * Generated from the registry: every tool, on each transport it is served on. No key → 401; a key without the scope
 * → refused and absent from tools/list; an unknown argument → validation_error; and, where the tool has an example,
 * MCP and REST give the same result (REST in snake_case for the mailbox family) matching the output schema. Mailbox
 * tools also: the spec's description suffix, its annotation rule, and a key restricted to another mailbox.
 * Examples name mail objects by placeholder (`{{inbox}}`), filled from one received conversation.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let full: { secret: string; projectId: string };
let mcp: Client;
/** The conversation the current tool's example names. */
let mail: MailFixture;
/** A key with every scope, restricted to a mailbox other than the fixture's. */
let elsewhere: string;

beforeAll(async () => {
  server = await startApiServer();
  const seeded = await seedProject();
  full = { secret: seeded.secret, projectId: seeded.project.id };
  mcp = (await connectMcp(server.url, full.secret)).client;
  const other = await seedMailbox(full.projectId);
  const db = await getDb();
  const restricted = await createKey(db, {
    actor: await ownerActor(db, seeded.owner, full.projectId, "dashboard"),
    name: "restricted elsewhere",
    scopes: [...allScopes],
    mailbox_id: other.id,
  });
  elsewhere = restricted.secret;
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

/** The tool's example with its placeholders filled, as MCP takes it. */
const exampleOf = (tool: AnyTool) => (tool.example === undefined ? undefined : (fillExample(tool.example, mail) as Record<string, unknown>));

/** Arguments as a REST caller writes them: snake_case for the mailbox family (design D4). */
const restCased = (tool: AnyTool, args: Record<string, unknown>) =>
  tool.family === "mailboxes" ? (toSnakeKeys(keyPlan(tool.input, "input"), args) as Record<string, unknown>) : args;

function restRequest(tool: AnyTool, secret: string | null, args: Record<string, unknown>) {
  let path = tool.rest.path;
  const rest = restCased(tool, args);
  for (const m of path.matchAll(/\{(\w+)\}/g)) {
    path = path.replace(m[0], encodeURIComponent(String(rest[m[1]] ?? "x")));
    delete rest[m[1]];
  }
  const bodyless = tool.rest.method === "GET" || tool.rest.method === "DELETE";
  // A tool whose body is one argument (rest.body: webhook `request`) takes the others in the query.
  const bodyArg = tool.rest.body;
  const body = bodyArg ? rest[bodyArg] : rest;
  if (bodyArg) delete rest[bodyArg];
  const query = bodyless || bodyArg ? Object.entries(rest) : [];
  const qs = query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)]))}` : "";
  return fetch(`${server.url}/api/v1${path}${qs}`, {
    method: tool.rest.method,
    headers: { "content-type": "application/json", ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
    body: bodyless ? undefined : JSON.stringify(body ?? {}),
  });
}

// callTool's result type is a union that includes the legacy `toolResult` shape, hence `unknown`.
const errorCode = (res: unknown) => JSON.parse((res as { content: { text: string }[] }).content[0].text).code;

describe.each(tools.map((t) => [t.name, t] as const))("%s", (_name, tool) => {
  // Each mailbox tool gets a conversation of its own in a mailbox of its own: examples of delete and update tools
  // change what they name, and must not change what the next tool's example names.
  if (tool.family === "mailboxes") beforeAll(async () => void (mail = await seedReceivedMail(full.projectId, (await seedMailbox(full.projectId)).id)));

  it("refuses a call without a key (401) over MCP and REST", async () => {
    const mcpRes = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: {} } }),
    });
    expect(mcpRes.status).toBe(401);
    if (!onTransport(tool, "rest")) return;
    const restRes = await restRequest(tool, null, {});
    expect(restRes.status).toBe(401);
    expect((await restRes.json()).error.code).toBe("unauthorized");
  });

  if (scopesOf(tool).length > 0)
    it("hides and refuses the tool for a key without its scope", async () => {
      const others = allScopes.filter((s) => !scopesOf(tool).includes(s));
      const { secret } = await seedKey(full.projectId, others, `without ${tool.name}`);
      const { client } = await connectMcp(server.url, secret);
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).not.toContain(tool.name);
      if (onTransport(tool, "mcp")) {
        const res = await client.callTool({ name: tool.name, arguments: exampleOf(tool) ?? {} });
        expect(res.isError).toBe(true);
        expect(errorCode(res)).toBe("missing_permission");
      }
      await client.close();
      if (!onTransport(tool, "rest")) return;
      const restRes = await restRequest(tool, secret, exampleOf(tool) ?? {});
      expect(restRes.status).toBe(403);
      expect((await restRes.json()).error.code).toBe("missing_permission");
    });

  it("rejects an unknown argument with validation_error over both transports", async () => {
    const args = { ...(exampleOf(tool) ?? {}), bogus_argument: 1 };
    if (onTransport(tool, "mcp")) {
      const res = await mcp.callTool({ name: tool.name, arguments: args });
      expect(res.isError).toBe(true);
      expect(errorCode(res)).toBe("validation_error");
      expect(JSON.parse((res.content as { text: string }[])[0].text).message).toContain("bogus_argument");
    }
    if (!onTransport(tool, "rest")) return;
    const restRes = await restRequest(tool, full.secret, args);
    expect(restRes.status).toBe(400);
    const body = await restRes.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.message).toContain("bogus_argument");
  });

  it("is listed with annotations, an input schema and an object output schema, or not at all when REST-only", async () => {
    const listed = (await mcp.listTools()).tools.find((t) => t.name === tool.name);
    if (!onTransport(tool, "mcp")) {
      expect(listed).toBeUndefined();
      const res = await mcp.callTool({ name: tool.name, arguments: exampleOf(tool) ?? {} }).catch((e: Error) => e);
      expect(res).toBeInstanceOf(Error);
      return;
    }
    if (!listed) throw new Error(`${tool.name} is not in tools/list`);
    expect(listed.annotations).toEqual(expect.objectContaining({ readOnlyHint: expect.any(Boolean) }));
    expect(listed.inputSchema.type).toBe("object");
    expect(listed.outputSchema?.type).toBe("object");
  });

  if (tool.example !== undefined && onTransport(tool, "mcp") && onTransport(tool, "rest"))
    it("gives the same result shape over MCP and REST", async () => {
      const viaMcp = await mcp.callTool({ name: tool.name, arguments: exampleOf(tool) });
      expect(viaMcp.isError, JSON.stringify(viaMcp.content)).toBeFalsy();
      expect(JSON.parse((viaMcp.content as { text: string }[])[0].text)).toEqual(viaMcp.structuredContent);
      const restRes = await restRequest(tool, full.secret, exampleOf(tool) ?? {});
      const viaRest = await restRes.json();
      expect(restRes.status, JSON.stringify(viaRest)).toBe(200);
      // Both transports render results alike: snake_case for the mailbox family.
      const shown = toolView(tool, "mcp").output;
      expect(shown.safeParse(viaRest).success).toBe(true);
      expect(shown.safeParse(viaMcp.structuredContent).success).toBe(true);
      expect(Object.keys(viaRest).sort()).toEqual(Object.keys(viaMcp.structuredContent as object).sort());
    });

  if (tool.family === "mailboxes") {
    it("ends its description with the spec's sentence and follows the spec's annotation rule", async () => {
      expect(tool.description.endsWith(` ${MAILBOX_UNTRUSTED_SENTENCE}`)).toBe(true);
      const { title: _, ...hints } = tool.annotations;
      const verb = tool.name.split("_")[0];
      const rule =
        verb === "list" || verb === "search" || verb === "get"
          ? { readOnlyHint: true, destructiveHint: false, idempotentHint: true }
          : verb === "update"
            ? { readOnlyHint: false, destructiveHint: false, idempotentHint: true }
            : // A REST-only batch can delete (its other actions, label and trash, are idempotent too).
              verb === "delete" || verb === "batch"
              ? { readOnlyHint: false, destructiveHint: true, idempotentHint: true }
              : { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
      expect(hints).toEqual({ ...rule, openWorldHint: true });
    });

    const example = JSON.stringify(tool.example ?? {});
    if (/\{\{(inbox|thread|message|attachment)\}\}/.test(example))
      it("answers a key restricted to another mailbox with NOT_FOUND or missing_permission, on both transports", async () => {
        const codes = ["NOT_FOUND", "missing_permission"];
        if (onTransport(tool, "mcp")) {
          const { client } = await connectMcp(server.url, elsewhere);
          const res = await client.callTool({ name: tool.name, arguments: exampleOf(tool) });
          await client.close();
          expect(res.isError).toBe(true);
          expect(codes).toContain(errorCode(res));
        }
        if (onTransport(tool, "rest")) {
          const restRes = await restRequest(tool, elsewhere, exampleOf(tool) ?? {});
          expect([403, 404]).toContain(restRes.status);
          expect(codes).toContain((await restRes.json()).error.code);
        }
      });
  }
});
