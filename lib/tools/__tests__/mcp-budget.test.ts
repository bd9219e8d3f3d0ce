import { createHash } from "node:crypto";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor } from "@/lib/actor";
import { keyActor } from "@/lib/keys/key-actor";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { seedProject } from "@/lib/testing/seed";
import { budgetedOutput } from "@/lib/tools/budgeted-output";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { toolSchemas } from "@/lib/tools/json-schema";
import { fitMcpResult, MCP_RESULT_BYTES } from "@/lib/tools/result-budget";
import { runTool } from "@/lib/tools/run-tool";

// The registry is a static list, so these test-only tools run through runTool with the actor an adapter builds.

const attachment = z.object({ attachment_id: z.string(), filename: z.string(), size: z.number().int() }).strict();
const message = z
  .object({
    message_id: z.string(),
    thread_id: z.string(),
    inbox_id: z.string(),
    from: z.string().describe("Sender"),
    subject: z.string(),
    labels: z.array(z.string()),
    preview: z.string(),
    text: z.string().min(1),
    html: z.string().nullable(),
    extracted_text: z.string(),
    extracted_html: z.string().nullable(),
    attachments: z.array(attachment),
  })
  .strict();
const threadSchema = z
  .object({
    thread_id: z.string(),
    inbox_id: z.string(),
    subject: z.string(),
    count: z.number().int(),
    next_page_token: z.string().nullable(),
    messages: z.array(message),
  })
  .strict();

const filler = (n: number) => "Numbers attached 😀 — see below. ".repeat(Math.ceil(n / 32)).slice(0, n);
const thread = (messages: number, size: number): z.output<typeof threadSchema> => ({
  thread_id: "thd_1",
  inbox_id: "mbx_1",
  subject: "Quarterly numbers",
  count: messages,
  next_page_token: "pt_next",
  messages: Array.from({ length: messages }, (_, i) => ({
    message_id: `msg_${i}`,
    thread_id: "thd_1",
    inbox_id: "mbx_1",
    from: "ann@example.com",
    subject: "Re: Quarterly numbers",
    labels: ["received"],
    preview: filler(200),
    text: filler(size / 3),
    html: `<p>${filler(size / 3)}</p>`,
    extracted_text: filler(size / 6),
    extracted_html: null,
    attachments: [{ attachment_id: `att_${i}`, filename: "q3.pdf", size: 1234 }],
  })),
});

const input = z.object({ messages: z.number().int(), size: z.number().int() }).strict();
const probe = (name: string, budget: boolean) =>
  defineTool({
    name,
    family: "mailboxes",
    scope: "any",
    description: "Test-only: a thread of the given size.",
    input,
    output: budget ? budgetedOutput(threadSchema) : threadSchema,
    annotations: { ...mailboxRead, title: name },
    rest: { method: "GET", path: `/${name}` },
    ...(budget
      ? { mcpBudget: { fix: (_i: unknown, out: { thread_id: string }) => `GET /api/v1/threads/${out.thread_id} returns every message in full.` } }
      : {}),
    handler: async (_ctx, args) => thread(args.messages, args.size),
  });
const budgeted = probe("budget_probe", true);
const unbudgeted = probe("plain_probe", false);

let project: Awaited<ReturnType<typeof seedProject>>;
const actorVia = (via: "mcp" | "rest"): Actor => keyActor({ ...project.key, projectName: project.project.name }, new Headers(), via, null);
const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

const lastEntry = (op: string) => lastLedgerEntry(project.project.id, op);

beforeAll(async () => {
  project = await seedProject({ scopes: ["disk"] });
});

describe("the MCP result budget in the tool pipeline", () => {
  it("shortens a 12 × 30 KB thread over MCP, and the ledger digests the very text the caller gets", async () => {
    const { output, text } = await runTool(budgeted, actorVia("mcp"), { messages: 12, size: 30_000 }, new AbortController().signal);
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(JSON.parse(text)).toEqual(output);
    expect(output).toMatchObject({ truncated: true, fix: "GET /api/v1/threads/thd_1 returns every message in full.", next_page_token: "pt_next" });
    expect((await lastEntry("budget.probe")).outputDigest).toBe(sha256(text));
  });

  it("never shortens REST", async () => {
    const { output, text } = await runTool(budgeted, actorVia("rest"), { messages: 12, size: 30_000 }, new AbortController().signal);
    expect(output).toEqual(thread(12, 30_000));
    expect(text).toBe(JSON.stringify(thread(12, 30_000)));
    expect((await lastEntry("budget.probe")).outputDigest).toBe(sha256(text));
  });

  it("leaves a tool that does not opt in unchanged over MCP", async () => {
    const { output, text } = await runTool(unbudgeted, actorVia("mcp"), { messages: 12, size: 30_000 }, new AbortController().signal);
    expect(text).toBe(JSON.stringify(thread(12, 30_000)));
    expect(output).not.toHaveProperty("truncated");
  });

  it("refuses a budgeted tool whose output schema is not budgeted, when it is defined", () => {
    expect(() => defineTool({ ...unbudgeted, name: "bad_probe", mcpBudget: { fix: () => "GET /api/v1/threads" } })).toThrow(
      /bad_probe has mcpBudget: its output must be budgetedOutput/,
    );
  });

  it("refuses a prefixed read on a tool that writes: its handler may run twice", () => {
    const writes = { ...budgeted, annotations: { ...budgeted.annotations, readOnlyHint: false } };
    expect(() => defineTool({ ...writes, name: "bad_probe", mcpBudget: { fix: () => "GET /api/v1/threads", prefix: () => 2048 } })).toThrow(
      /bad_probe: mcpBudget.prefix is for read-only tools/,
    );
  });
});

describe("budgetedOutput", () => {
  // The validator the MCP SDK client runs on structuredContent, against the outputSchema tools/list would publish.
  const validate = (tool: typeof budgeted, value: unknown) => new AjvJsonSchemaValidator().getValidator(toolSchemas(tool).output)(value);
  const fix = "GET /api/v1/threads/thd_1";
  const rungs = {
    "2048": fitMcpResult(thread(1, 30_000), { fix }).output,
    "512": fitMcpResult(thread(4, 30_000), { fix }).output,
    "0": fitMcpResult(thread(12, 30_000), { fix }).output,
    "largest items as identifiers": fitMcpResult(thread(120, 30_000), { fix }).output,
    "identifiers only": fitMcpResult(thread(600, 30_000), { fix }).output,
  };

  it("lands each sample on the rung it is named for", () => {
    const firstText = (o: Record<string, unknown>) => (o.messages as { text?: string }[])[0].text;
    expect([...(firstText(rungs["2048"]) ?? "")].length).toBe(2048);
    expect([...(firstText(rungs["512"]) ?? "")].length).toBe(512);
    expect(firstText(rungs["0"])).toBe("");
    const items = rungs["largest items as identifiers"];
    expect(items).toHaveProperty("subject", "Quarterly numbers");
    const kept = (items.messages as Record<string, unknown>[]).filter((m) => "subject" in m);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(120);
    expect(rungs["identifiers only"]).not.toHaveProperty("subject");
    expect((rungs["identifiers only"].messages as unknown[]).length).toBe(600);
  });

  it.each(Object.entries(rungs))("lets the SDK client's validator accept the %s rung", (_rung, output) => {
    expect(validate(budgeted, output)).toMatchObject({ valid: true });
    expect(budgeted.output.safeParse(output).success).toBe(true);
  });

  it("is needed: the plain schema refuses a shortened result", () => {
    expect(validate(unbudgeted, rungs["0"]).valid).toBe(false);
    expect(validate(unbudgeted, rungs["identifiers only"]).valid).toBe(false);
  });

  it("knows identifiers and content fields in a camelCase schema, as mailbox tools are written (design D4)", () => {
    const camel = budgetedOutput(
      z.object({ inboxId: z.string(), nextPageToken: z.string().nullable(), extractedText: z.string().min(1), displayName: z.string() }),
    );
    expect(camel.safeParse({ inboxId: "mbx_1", nextPageToken: null, extractedText: "" }).success).toBe(true);
    expect(camel.safeParse({ nextPageToken: null }).success).toBe(false);
    expect(camel.safeParse({ inboxId: "mbx_1" }).success).toBe(false);
  });

  it("keeps identifiers required, descriptions and the full result valid", () => {
    const schema = toolSchemas(budgeted).output as {
      required: string[];
      properties: Record<string, { items: { required: string[]; properties: Record<string, { description?: string }> } }>;
    };
    expect(schema.required).toEqual(["thread_id", "inbox_id", "count", "next_page_token"]);
    expect(schema.properties.messages.items.required).toEqual(["message_id", "thread_id", "inbox_id"]);
    expect(schema.properties.messages.items.properties.from.description).toBe("Sender");
    expect(validate(budgeted, thread(2, 3_000))).toMatchObject({ valid: true });
    expect(validate(budgeted, { ...thread(1, 300), messages: [{ thread_id: "thd_1", inbox_id: "mbx_1" }] }).valid).toBe(false);
  });
});
