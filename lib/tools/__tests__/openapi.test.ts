import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS from "openapi-typescript";
import { openApiDocument } from "@/lib/tools/adapters/openapi";

type Param = { name: string; in: string; required?: boolean };
type Operation = {
  operationId: string;
  parameters: Param[];
  requestBody?: { content: { "application/json": { schema: { properties?: Record<string, unknown>; required?: string[] } } } };
};
const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
const dir = mkdtempSync(join(tmpdir(), "brynth-openapi-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    "%s: path parameters are parameters only, and every required body field exists",
    (_label, { path, op }) => {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        op.parameters
          .filter((p) => p.in === "path")
          .map((p) => p.name)
          .sort(),
      ).toEqual([...inPath].sort());
      const body = op.requestBody?.content["application/json"].schema;
      if (!body) return;
      for (const name of inPath) {
        expect(Object.keys(body.properties ?? {})).not.toContain(name);
        expect(body.required ?? []).not.toContain(name);
      }
      for (const name of body.required ?? []) expect(Object.keys(body.properties ?? {})).toContain(name);
    },
  );

  it("describes the mailbox family in snake_case, as REST callers write it and every caller receives it", () => {
    const list = doc.paths["/api/v1/inboxes"].get;
    expect(list.parameters.map((p) => p.name).sort()).toEqual(["ascending", "limit", "page_token"]);
    const get = doc.paths["/api/v1/inboxes/{inbox_id}"].get as Operation & {
      responses: Record<string, { content: Record<string, { schema: { properties: object } }> }>;
    };
    expect(get.parameters.map((p) => p.name)).toEqual(["inbox_id"]);
    const shown = Object.keys(get.responses["200"].content["application/json"].schema.properties);
    expect(shown).toEqual(expect.arrayContaining(["inbox_id", "display_name", "send_policy", "created_at"]));
    expect(shown.filter((k) => /[A-Z]/.test(k))).toEqual([]);
  });

  it("generates TypeScript types (openapi-typescript) that compile, with path parameters out of the bodies", async () => {
    writeFileSync(join(dir, "api.ts"), await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
    // Fails to compile if `task_id` or `event_id` were still required body fields.
    writeFileSync(
      join(dir, "use.ts"),
      [
        'import type { paths } from "./api";',
        'type StateBody = NonNullable<paths["/api/v1/state/{task_id}"]["put"]["requestBody"]>["content"]["application/json"];',
        "export const state: StateBody = { state: { step: 1 } };",
        'type AckPath = paths["/api/v1/events/{event_id}/ack"]["post"]["parameters"]["path"];',
        'export const ack: AckPath = { event_id: "evt_1" };',
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", types: [] },
        include: ["*.ts"],
      }),
    );
    const tsc = spawnSync(resolve("node_modules/.bin/tsc"), ["--noEmit", "-p", dir], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 60_000);
});
