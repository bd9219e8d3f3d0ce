import { z } from "zod";
import { env } from "@/lib/env";
import { errorCodes } from "@/lib/errors";
import { scopesOf } from "@/lib/tools/define-tool";
import { toolSchemas, type JsonSchema } from "@/lib/tools/json-schema";
import { restRoutes } from "@/lib/tools/adapters/rest-routes";

let cached: unknown;
let cachedBytes: Buffer | undefined;

/** Which of the owner's projects an owner route acts on; without it, the owner's first project. */
const projectHeader = {
  name: "X-Brynth-Project",
  in: "header",
  required: false,
  schema: { type: "string" },
  description: "The project to act on (an id from GET /api/v1/projects); default: the owner's first project.",
};

/**
 * A tool takes an API key, or the owner's own credentials (acting on X-Brynth-Project with every scope, as the
 * dashboard does: lib/auth/owner-principal.ts); an owner route takes only the owner's. The header is described on
 * the schemes rather than listed on every tool, whose parameters are its arguments.
 */
const OWNER_PROJECT = "The owner acts on the project named by the X-Brynth-Project header (default: their first), on a tool with every scope.";
const ownerSecurity = [{ ownerBasic: [] }, { ownerCookie: [] }];
const toolSecurity = [{ bearer: [] }, ...ownerSecurity];

/** The document serialized once, for GET /api/v1/openapi.json. */
export const openApiBytes = (): Buffer => (cachedBytes ??= Buffer.from(JSON.stringify(openApiDocument())));

/** Generated from the registry: the operationId is the tool name, parameters come from the tool's input schema. */
export function openApiDocument(): unknown {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of restRoutes) {
    if (r.kind === "tool" && r.alias) continue;
    const def = r.kind === "tool" ? r.tool : r.route;
    const { input, output } =
      r.kind === "tool"
        ? toolSchemas(r.tool, "rest")
        : {
            input: z.toJSONSchema(r.route.input, { io: "input", unrepresentable: "any" }) as JsonSchema,
            output: z.toJSONSchema(r.route.output, { io: "output", unrepresentable: "any" }) as JsonSchema,
          };
    const props = input.properties ?? {};
    const required = new Set((input.required as string[] | undefined) ?? []);
    // A path parameter is only ever a parameter: never a query parameter, a body property or a required body field.
    const inPath = r.params.map((name) => {
      const { description, ...schema } = props[name] ?? { type: "string" };
      return { name, in: "path", required: true, schema, ...(description ? { description } : {}) };
    });
    const bodyless = r.method === "GET" || r.method === "DELETE";
    // A tool whose body is one argument (rest.body) takes its other arguments in the query, as a GET does.
    const bodyArg = r.kind === "tool" ? r.tool.rest.body : undefined;
    const inQuery =
      bodyless || bodyArg
        ? Object.entries(props)
            .filter(([name]) => !r.params.includes(name) && name !== bodyArg)
            .map(([name, schema]) => ({ name, in: "query", required: required.has(name), schema, description: schema.description }))
        : [];
    const download = r.kind === "tool" ? (r.tool.rest.respond ? r.tool.rest : null) : r.route.rest.respond ? r.route.rest : null;
    const op: Record<string, unknown> = {
      operationId: def.name,
      summary: def.description.split(". ")[0],
      description: def.description,
      tags: [r.kind === "tool" ? r.tool.family : "owner"],
      parameters: [...inPath, ...inQuery, ...ifMatchHeader(r), ...idempotencyHeader(r), ...(r.kind === "owner" ? [projectHeader] : [])],
      security: r.kind === "tool" ? toolSecurity : ownerSecurity,
      "x-scopes": r.kind === "tool" ? scopesOf(r.tool) : ["owner"],
      responses: {
        [String(r.kind === "owner" ? (r.route.status ?? 200) : 200)]: {
          description: "Success",
          // A download (rest.respond) answers with the bytes, in the types it names; its JSON output is what the
          // ledger records.
          content: download
            ? Object.fromEntries((download.produces ?? ["application/octet-stream"]).map((t) => [t, { schema: { type: "string", format: "binary" } }]))
            : { "application/json": { schema: output } },
        },
        default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    };
    if (!bodyless && bodyArg) {
      op.requestBody = { required: required.has(bodyArg), content: { "application/json": { schema: props[bodyArg] ?? {} } } };
    } else if (!bodyless) {
      const { properties, required: _, ...rest } = input;
      const bodyProps = Object.fromEntries(Object.entries(properties ?? {}).filter(([n]) => !r.params.includes(n)));
      const bodyRequired = [...required].filter((n) => !r.params.includes(n));
      const schema = { ...rest, properties: bodyProps, ...(bodyRequired.length ? { required: bodyRequired } : {}) };
      op.requestBody = { required: bodyRequired.length > 0, content: { "application/json": { schema } } };
    }
    const oaPath = `/api/v1${r.path}`;
    (paths[oaPath] ??= {})[r.method.toLowerCase()] = op;
  }
  cached = {
    openapi: "3.1.0",
    info: { title: "Brynth API", version: "1", description: "Every MCP tool as a REST operation with the same parameters." },
    servers: [{ url: env().publicUrl }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "API key brk_live_…" },
        ownerBasic: { type: "http", scheme: "basic", description: `Owner email and password. ${OWNER_PROJECT}` },
        ownerCookie: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: `The dashboard's session, from this instance's own origin only. ${OWNER_PROJECT}`,
        },
      },
      schemas: {
        Error: {
          type: "object",
          properties: {
            error: {
              type: "object",
              required: ["name", "code", "message"],
              properties: {
                name: { type: "string" },
                code: { type: "string", enum: Object.keys(errorCodes) },
                message: { type: "string" },
                fix: { type: "string" },
              },
            },
          },
        },
      },
    },
  };
  return cached;
}

/** Tools with optimistic concurrency take their version argument from `If-Match` too (lib/tools/adapters/rest-etag.ts). */
function ifMatchHeader(r: (typeof restRoutes)[number]) {
  const arg = r.kind === "tool" ? r.tool.rest.ifMatch : undefined;
  if (!arg) return [];
  return [
    {
      name: "If-Match",
      in: "header",
      required: false,
      schema: { type: "string" },
      description: `The ETag of your last read, e.g. "3": the same as \`${arg}\`.`,
    },
  ];
}

/** Sending tools take their idempotency key from `Idempotency-Key` too (lib/tools/adapters/rest-idempotency.ts). */
function idempotencyHeader(r: (typeof restRoutes)[number]) {
  if (r.kind !== "tool" || !r.tool.idempotencyKey) return [];
  return [
    {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      schema: { type: "string", maxLength: 255 },
      description: "A retry with the same key within 24 hours returns the first result and sends nothing; the same key space as MCP's `idempotencyKey`.",
    },
  ];
}
