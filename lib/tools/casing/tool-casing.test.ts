import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { keyPlan } from "@/lib/tools/casing/key-plan";
import { fromSnakeKeys, toSnakeKeys } from "@/lib/tools/casing/rename-keys";
import { snakeSchema } from "@/lib/tools/casing/snake-schema";
import type { JsonSchema } from "@/lib/tools/json-schema";
import { parseToolArgs, toolResult, toolView, type Transport } from "@/lib/tools/casing/tool-casing";

/** Shaped like the mailbox tools: ids, lists, user-keyed records, nested strict objects and every wrapper. */
const attachment = z.object({ fileName: z.string(), contentType: z.string().default("application/octet-stream"), contentBase64: z.string() }).strict();
const input = z
  .object({
    inboxId: z.string().describe("The mailbox id or address."),
    pageToken: z.string().optional(),
    limit: z.number().int().max(100).default(10),
    ccAddresses: z.array(z.string()).optional(),
    replyTo: z.string().nullable().optional(),
    includeSpam: z.boolean().default(false),
    metadata: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    attachments: z.array(attachment).optional(),
    target: z
      .discriminatedUnion("targetKind", [
        z.object({ targetKind: z.literal("thread"), threadId: z.string() }).strict(),
        z.object({ targetKind: z.literal("message"), messageId: z.string() }).strict(),
      ])
      .optional(),
    request: z.union([z.object({ webhookUrl: z.string() }).strict(), z.object({ eventTypes: z.array(z.string()) }).strict()]).optional(),
    anything: z.unknown().optional(),
  })
  .strict();
const message = z.object({
  messageId: z.string(),
  threadId: z.string(),
  extractedText: z.string().optional(),
  ccAddresses: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  headers: z.record(z.string(), z.string()),
  attachments: z.array(z.object({ attachmentId: z.string(), contentType: z.string() })),
  sendStatus: z.enum(["queued", "sent"]).nullable(),
});
const output = z.object({ count: z.number(), nextPageToken: z.string().nullable(), messages: z.array(message) });
const mailTool = { family: "mailboxes" as const, input, output };
const brynthTool = { family: "brynth" as const, input, output };

/** The validation_error a call gets, with its details ({ field, message } per issue). */
function refusal(transport: Transport, args: unknown, tool: typeof mailTool | typeof brynthTool = mailTool) {
  try {
    parseToolArgs(tool, transport, args);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const err = e as AppError;
    expect(err.code).toBe("validation_error");
    return { message: err.message, fields: (err.details as { field: string; message: string }[]).map((d) => d.field) };
  }
  throw new Error("the call was accepted");
}

const userKeys = { fooBar: 1, foo_bar: "two", "X-Custom-Id": "x", HTMLBody: "h", "": "empty", "a.b": "dot" };
const userHeaders = { "X-Mailer-Id": "m", "List-Unsubscribe": "<mailto:u@x>", reply_to: "r", replyTo: "R" };

describe("arguments", () => {
  const camel = {
    inboxId: "mbx_1",
    pageToken: "tok",
    ccAddresses: ["a@x.test"],
    replyTo: null,
    metadata: userKeys,
    headers: userHeaders,
    attachments: [{ fileName: "a.txt", contentBase64: "aGk=" }],
    target: { targetKind: "thread", threadId: "thr_1" },
    request: { webhookUrl: "https://hook.test" },
    anything: { fooBar: { baz_qux: 1 } },
  };
  const snake = {
    inbox_id: "mbx_1",
    page_token: "tok",
    cc_addresses: ["a@x.test"],
    reply_to: null,
    metadata: userKeys,
    headers: userHeaders,
    attachments: [{ file_name: "a.txt", content_base64: "aGk=" }],
    target: { target_kind: "thread", thread_id: "thr_1" },
    request: { webhook_url: "https://hook.test" },
    anything: { fooBar: { baz_qux: 1 } },
  };
  const parsed = {
    ...camel,
    limit: 10,
    includeSpam: false,
    attachments: [{ fileName: "a.txt", contentType: "application/octet-stream", contentBase64: "aGk=" }],
  };

  it("MCP takes camelCase, REST takes snake_case, and both parse to the same input (defaults applied)", () => {
    expect(parseToolArgs(mailTool, "mcp", camel)).toEqual(parsed);
    expect(parseToolArgs(mailTool, "rest", snake)).toEqual(parsed);
  });

  it("keeps metadata, header and z.unknown keys verbatim, camelCase-looking and snake_case-looking alike", () => {
    const got = parseToolArgs(mailTool, "rest", snake);
    expect(Object.keys(got.metadata ?? {})).toEqual(Object.keys(userKeys));
    expect(got.headers).toEqual(userHeaders);
    expect(got.anything).toEqual({ fooBar: { baz_qux: 1 } });
  });

  it("renames the keys of each union and discriminated-union option", () => {
    const got = parseToolArgs(mailTool, "rest", { inbox_id: "m", target: { target_kind: "message", message_id: "msg_1" }, request: { event_types: ["a"] } });
    expect(got.target).toEqual({ targetKind: "message", messageId: "msg_1" });
    expect(got.request).toEqual({ eventTypes: ["a"] });
  });

  it("refuses an unknown argument at the top level in either casing", () => {
    for (const transport of ["mcp", "rest"] as const) {
      const args = transport === "mcp" ? { inboxId: "m", bogus: 1 } : { inbox_id: "m", bogus: 1 };
      const got = refusal(transport, args);
      expect(got.message).toContain("Unknown argument: bogus");
      expect(got.fields).toEqual(["bogus"]);
    }
  });

  it("refuses a NUL or a lone surrogate anywhere in a tool's arguments, naming the field as the caller wrote it", () => {
    expect(refusal("mcp", { inboxId: "mbx_\u0000x" }).fields).toEqual(["inboxId"]);
    expect(refusal("rest", { inbox_id: "mbx_\u0000x" }).fields).toEqual(["inbox_id"]);
    expect(refusal("rest", { inbox_id: "m", metadata: { "k\u0000": "v" } }).fields).toEqual(["metadata.k\u0000"]);
    expect(refusal("mcp", { inboxId: "m", replyTo: "caf\uD800" })).toEqual({
      message: expect.stringContaining("replyTo: must not contain a lone surrogate"),
      fields: ["replyTo"],
    });
    expect(refusal("rest", { inbox_id: "m", metadata: { "\uDC00k": "v" } }).fields).toEqual(["metadata.\uDC00k"]);
    // A surrogate pair is one character, not a lone surrogate.
    expect(() => parseToolArgs(mailTool, "mcp", { inboxId: "m", replyTo: "\uD83D\uDE00" })).not.toThrow();
    // Every family: a ledger filter or an event source with a NUL failed inside the database, as a 500.
    expect(refusal("mcp", { inboxId: "m", metadata: { k: "a\u0000b" } }, brynthTool).fields).toEqual(["metadata.k"]);
    expect(refusal("mcp", { inboxId: "m", ccAddresses: ["\uDBFF"] }, brynthTool).fields).toEqual(["ccAddresses.0"]);
    expect(refusal("rest", { inbox_id: "m", metadata: JSON.parse('{"__proto__": {"x": 1}, "k": 1}') })).toEqual({
      message: expect.stringContaining("metadata.__proto__: must not contain the key __proto__"),
      fields: ["metadata.__proto__"],
    });
    // An argument kept as the JSON text sent (jsonText) holds both as escapes: it is data there; any other is checked.
    const anything = { inboxId: "m", anything: { k: "a\u0000b", "\uD800": "\uDC00" } };
    expect(() => parseToolArgs({ ...brynthTool, jsonText: new Set(["anything"]) }, "mcp", anything)).not.toThrow();
    expect(refusal("mcp", anything, brynthTool).fields).toEqual(["anything.k"]);
  });

  it("refuses the other transport's casing as unknown, never as a synonym", () => {
    expect(refusal("rest", { inboxId: "m" })).toEqual({ message: expect.stringContaining("Unknown argument: inboxId"), fields: ["inbox_id", "inboxId"] });
    expect(refusal("mcp", { inbox_id: "m" }).fields).toEqual(["inboxId", "inbox_id"]);
    // Sending both over REST must not let the camelCase one slip through or override the other.
    expect(refusal("rest", { inbox_id: "m", inboxId: "other" }).fields).toEqual(["inboxId"]);
  });

  it("refuses unknown keys in nested objects: array items, union and discriminated-union options", () => {
    const nested = [
      [{ inbox_id: "m", attachments: [{ file_name: "a", content_base64: "x", bogus: 1 }] }, "attachments.0"],
      [{ inbox_id: "m", attachments: [{ file_name: "a", contentBase64: "x" }] }, "attachments.0"],
      [{ inbox_id: "m", target: { target_kind: "thread", thread_id: "t", bogus: 1 } }, "target"],
      [{ inbox_id: "m", request: { webhook_url: "u", bogus: 1 } }, "request"],
    ] as const;
    for (const [args, field] of nested) {
      const got = refusal("rest", args);
      expect(got.fields).toContain(field);
      expect(got.message).toMatch(/Unknown argument: (bogus|contentBase64)/);
    }
    const mcp = refusal("mcp", { inboxId: "m", attachments: [{ fileName: "a", contentBase64: "x", bogus: 1 }] });
    expect(mcp).toEqual({ message: "attachments.0: Unknown argument: bogus", fields: ["attachments.0"] });
  });

  it("names a bad field in the caller's casing", () => {
    const bad = (transport: Transport, args: unknown) => refusal(transport, args).fields;
    expect(bad("mcp", {})).toEqual(["inboxId"]);
    expect(bad("rest", {})).toEqual(["inbox_id"]);
    expect(bad("mcp", { inboxId: "m", attachments: [{ fileName: "a", contentType: 5, contentBase64: "x" }] })).toEqual(["attachments.0.contentType"]);
    expect(bad("rest", { inbox_id: "m", attachments: [{ file_name: "a", content_type: 5, content_base64: "x" }] })).toEqual(["attachments.0.content_type"]);
    expect(bad("rest", { inbox_id: "m", cc_addresses: ["a", 7] })).toEqual(["cc_addresses.1"]);
    expect(bad("rest", { inbox_id: "m", target: { target_kind: "thread" } })).toEqual(["target.thread_id"]);
    expect(bad("rest", { inbox_id: "m", limit: 101 })).toEqual(["limit"]);
    // A record's keys are the user's: an error inside one keeps the key as written.
    expect(bad("rest", { inbox_id: "m", metadata: { someKey: {} } })).toEqual(["metadata.someKey"]);
    expect(bad("rest", { inbox_id: "m", headers: { "X-Mailer-Id": 1 } })).toEqual(["headers.X-Mailer-Id"]);
  });

  it("reports an unknown argument together with the other problems, in the order MCP reports them", () => {
    expect(refusal("rest", { bogus: 1, limit: "ten" }).fields).toEqual(["inbox_id", "limit", "bogus"]);
    expect(refusal("mcp", { bogus: 1, limit: "ten" }).fields).toEqual(["inboxId", "limit", "bogus"]);
  });

  it("serves Brynth tools exactly as written: camelCase over REST too", () => {
    expect(parseToolArgs(brynthTool, "rest", camel)).toEqual(parsed);
    expect(refusal("rest", snake, brynthTool).message).toContain("Unknown arguments: inbox_id, page_token");
  });
});

describe("results", () => {
  const camelResult = {
    count: 1,
    nextPageToken: null,
    messages: [
      {
        messageId: "msg_1",
        threadId: "thr_1",
        extractedText: "hi",
        ccAddresses: ["a@x.test"],
        metadata: userKeys,
        headers: userHeaders,
        attachments: [{ attachmentId: "att_1", contentType: "text/plain" }],
        sendStatus: null,
      },
    ],
  };
  const snakeResult = {
    count: 1,
    next_page_token: null,
    messages: [
      {
        message_id: "msg_1",
        thread_id: "thr_1",
        extracted_text: "hi",
        cc_addresses: ["a@x.test"],
        metadata: userKeys,
        headers: userHeaders,
        attachments: [{ attachment_id: "att_1", content_type: "text/plain" }],
        send_status: null,
      },
    ],
  };

  it("are snake_case for the mailbox family, with user keys verbatim, and unchanged for Brynth tools", () => {
    expect(toolResult(mailTool, output.parse(camelResult))).toEqual(snakeResult);
    expect(toolResult(brynthTool, camelResult)).toBe(camelResult);
  });

  it("validate against the published outputSchema, as the MCP SDK client checks them", () => {
    // As lib/tools/json-schema.ts publishes it: without `$schema`.
    const { $schema: _, ...schema } = z.toJSONSchema(toolView(mailTool, "mcp").output, { io: "output" }) as JsonSchema;
    const validate = new AjvJsonSchemaValidator().getValidator(schema);
    expect(validate(toolResult(mailTool, camelResult))).toMatchObject({ valid: true });
    expect(validate(camelResult)).toMatchObject({ valid: false });
  });

  it("from an output schema already in snake_case are returned as they are, unwalked", () => {
    const snakeOut = z.object({ inbox_id: z.string(), metadata: z.record(z.string(), z.string()) });
    const value = { inbox_id: "m", metadata: { fooBar: "x" } };
    expect(toolResult({ family: "mailboxes", input, output: snakeOut }, value)).toBe(value);
  });

  it("round-trip: camelCase → snake_case → camelCase gives the original back", () => {
    const plan = keyPlan(output, "output");
    const unknown: unknown[] = [];
    expect(fromSnakeKeys(plan, toSnakeKeys(plan, camelResult), [])).toEqual(camelResult);
    expect(unknown).toEqual([]);
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), fc.dictionary(fc.string(), fc.jsonValue()), (headers, metadata) => {
        const value = { ...camelResult, messages: [{ ...camelResult.messages[0], headers, metadata }] };
        const snake = toSnakeKeys(plan, value) as typeof snakeResult;
        expect(snake.messages[0].headers).toEqual(headers);
        expect(snake.messages[0].metadata).toEqual(metadata);
        expect(fromSnakeKeys(plan, snake, [])).toEqual(value);
      }),
    );
  });
});

describe("published schemas", () => {
  it("show each transport's casing, keep descriptions, strictness, defaults and records, and are computed once", () => {
    // biome-ignore lint/suspicious/noExplicitAny: a JSON Schema document read in assertions, any depth
    const rest = z.toJSONSchema(toolView(mailTool, "rest").input, { io: "input" }) as Record<string, any>;
    expect(Object.keys(rest.properties)).toEqual([
      "inbox_id",
      "page_token",
      "limit",
      "cc_addresses",
      "reply_to",
      "include_spam",
      "metadata",
      "headers",
      "attachments",
      "target",
      "request",
      "anything",
    ]);
    expect(rest.required).toEqual(["inbox_id"]);
    expect(rest.additionalProperties).toBe(false);
    expect(rest.properties.inbox_id.description).toBe("The mailbox id or address.");
    expect(rest.properties.limit).toMatchObject({ default: 10, maximum: 100 });
    expect(rest.properties.attachments.items).toMatchObject({
      properties: { file_name: {}, content_type: { default: "application/octet-stream" }, content_base64: {} },
      additionalProperties: false,
    });
    expect(rest.properties.target.oneOf ?? rest.properties.target.anyOf).toEqual(
      expect.arrayContaining([expect.objectContaining({ required: ["target_kind", "thread_id"] })]),
    );
    expect(rest.properties.metadata.additionalProperties).toBeDefined();

    expect(toolView(mailTool, "mcp").input).toBe(input);
    expect(toolView(mailTool, "rest").input).toBe(toolView(mailTool, "rest").input);
    expect(toolView(mailTool, "rest").output).toBe(toolView(mailTool, "mcp").output);
    expect(toolView(brynthTool, "rest")).toEqual({ input, output });
  });

  it("parse the converted arguments the same way (a REST body valid for the snake_case view parses)", () => {
    const restView = toolView(mailTool, "rest").input;
    const body = { inbox_id: "m", attachments: [{ file_name: "a", content_base64: "x" }] };
    expect(restView.safeParse(body).success).toBe(true);
    expect(restView.safeParse({ inboxId: "m" }).success).toBe(false);
  });

  it("refuse a schema whose keys collide in snake_case, where it is defined", () => {
    const clash = z.object({ fooBar: z.string(), foo_bar: z.string() });
    expect(() => keyPlan(clash, "input")).toThrow(/"fooBar" and "foo_bar"/);
    expect(() => snakeSchema(clash)).toThrow(/foo_bar/);
  });
});

describe("schema wrappers", () => {
  const item = z.object({ itemId: z.string() }).strict();
  const wrapped = z
    .object({
      lazyItem: z.lazy(() => item).optional(),
      piped: z.preprocess((v) => v, item).optional(),
      both: z.intersection(z.object({ leftKey: z.string() }), z.object({ rightKey: z.string() })).optional(),
      pair: z.tuple([item, z.string()]).optional(),
      fallback: item.catch({ itemId: "none" }).optional(),
      frozen: item.readonly().optional(),
      listOrOne: z.union([item, z.array(item)]).optional(),
    })
    .strict();
  const tool = { family: "mailboxes" as const, input: wrapped, output: wrapped };

  it("convert through lazy, preprocess, intersection, tuple, catch, readonly and array-or-object unions", () => {
    const snake = {
      lazy_item: { item_id: "a" },
      piped: { item_id: "b" },
      both: { left_key: "l", right_key: "r" },
      pair: [{ item_id: "c" }, "s"],
      fallback: { item_id: "d" },
      frozen: { item_id: "e" },
      list_or_one: [{ item_id: "f" }],
    };
    const camel = parseToolArgs(tool, "rest", snake);
    expect(camel).toEqual({
      lazyItem: { itemId: "a" },
      piped: { itemId: "b" },
      both: { leftKey: "l", rightKey: "r" },
      pair: [{ itemId: "c" }, "s"],
      fallback: { itemId: "d" },
      frozen: { itemId: "e" },
      listOrOne: [{ itemId: "f" }],
    });
    expect(toolResult(tool, camel)).toEqual(snake);
    expect(parseToolArgs(tool, "rest", { list_or_one: { item_id: "g" } })).toEqual({ listOrOne: { itemId: "g" } });
    expect(refusal("rest", { lazy_item: { itemId: "a" } }, tool as never).fields).toEqual(["lazy_item.item_id", "lazy_item"]);
  });

  it("refuse a recursive schema where it is defined", () => {
    type Node = { childNodes: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ childNodes: z.array(node) }));
    expect(() => keyPlan(z.object({ rootNode: node }), "input")).toThrow(/recursive/);
  });
});

describe("snakeSchema of a lazy schema", () => {
  it("publishes the snake_case view of what the lazy schema resolves to", () => {
    const lazy = z.lazy(() => z.object({ itemId: z.string() }));
    lazy.parse({ itemId: "resolve and cache the camelCase inner schema first" });
    const json = z.toJSONSchema(snakeSchema(z.object({ lazyItem: lazy })), { io: "input" }) as { properties: Record<string, { properties: object }> };
    expect(Object.keys(json.properties.lazy_item.properties)).toEqual(["item_id"]);
  });
});
