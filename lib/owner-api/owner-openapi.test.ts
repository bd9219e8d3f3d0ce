import { describe, expect, it } from "vitest";
import { ownerRoutes } from "@/lib/owner-api/owner-routes";
import { openApiDocument } from "@/lib/tools/adapters/openapi";

/** Every owner route is in the OpenAPI document once, under the `owner` tag, behind the owner's credentials only. */
describe("owner routes in OpenAPI", () => {
  it("documents each under the owner tag with Basic or the session cookie", () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { operationId: string; tags: string[]; security: unknown[]; parameters: { name: string }[] }>>;
    };
    const ops = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    for (const route of ownerRoutes) {
      const op = doc.paths[`/api/v1${route.rest.path}`]?.[route.rest.method.toLowerCase()];
      expect(op?.operationId, route.name).toBe(route.name);
      expect(op.tags).toEqual(["owner"]);
      expect(op.security).toEqual([{ ownerBasic: [] }, { ownerCookie: [] }]);
      expect(op.parameters.map((p) => p.name)).toContain("X-Brynth-Project");
      expect(ops.filter((o) => o.operationId === route.name)).toHaveLength(1);
    }
    const names = ownerRoutes.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of [
      "projects_create",
      "owner_sources_add",
      "owner_channels_add",
      "owner_relay_set",
      "owner_domains_add",
      "owner_sessions_end",
      "owner_events_requeue",
    ]) {
      expect(names).toContain(name);
    }
  });

  it("gives every route that changes something a ledger op, as its dashboard twin has", () => {
    // A POST that only reads (a dry run), and projects_create, whose new chain opens with its own project.create
    // entry (lib/ledger/open-chain.ts), write none here.
    const noEntry = new Set(["owner_policy_simulate", "projects_create"]);
    const changesWithoutOp = ownerRoutes.filter((r) => r.rest.method !== "GET" && !r.op && !noEntry.has(r.name)).map((r) => r.name);
    expect(changesWithoutOp).toEqual([]);
  });
});
