import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fastPathHandler } from "@/lib/http/fast-path";
import { stampRemoteAddress } from "@/lib/http/request-info";
import { findRoute, nextHandler, routes } from "@/lib/http/routes";

/** Every route file of the app, loaded on demand (paths as "/app/…/route.ts"). */
// The glob skips dot folders unless one is named: /.well-known (OAuth discovery) is listed on its own.
const routeFiles = {
  ...import.meta.glob<Record<string, unknown>>("/app/**/route.ts"),
  ...import.meta.glob<Record<string, unknown>>("/app/.well-known/**/route.ts"),
};
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
/** Route files that stay Next's alone: they need Next's request scope (next-auth, the dashboard's session). */
const NEXT_ONLY = [
  "app/api/auth/[...nextauth]/route.ts",
  "app/(dashboard)/ledger/export/route.ts",
  "app/(dashboard)/ledger/verify/route.ts",
  // The owner's mail attachment download: the dashboard session, like the ledger export.
  "app/(dashboard)/mail/[inbox]/attachments/[attachment]/route.ts",
];

/** A path the entry serves: each `:param` and the trailing `*` filled in. */
const sample = (path: string) => path.replace(/:[a-z_]+/g, "x").replace(/\*$/, "x");

/** The URLs Next sends to a route file, from its place under app/ (groups dropped, [a] one segment, [...a] the rest). */
function fileShape(file: string): RegExp {
  const segments = file
    .replace(/^app\//, "")
    .replace(/\/?route\.ts$/, "")
    .split("/")
    .filter((s) => !/^\(.*\)$/.test(s));
  const body = segments.map((s) => (s.startsWith("[...") ? ".+" : s.startsWith("[") ? "[^/]+" : s.replace(/[.-]/g, "\\$&"))).join("/");
  return new RegExp(`^/${body}$`);
}

describe("the route table", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      stampRemoteAddress(req);
      if (!fast(req, res)) res.writeHead(599).end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fast = fastPathHandler(base);
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("is the only dispatch of every route file it names: each exports the table's handler for every method", async () => {
    const named = [...new Set(routes.map((r) => r.next))];
    for (const file of named) {
      const load = routeFiles[`/${file}`];
      expect(load, `${file} exists`).toBeDefined();
      const mod = await load();
      expect(Object.fromEntries(METHODS.map((m) => [m, mod[m] === nextHandler])), file).toEqual(Object.fromEntries(METHODS.map((m) => [m, true])));
    }
    const files = Object.keys(routeFiles).map((f) => f.slice(1));
    expect(files.filter((f) => !named.includes(f)).sort()).toEqual([...NEXT_ONLY].sort());
  });

  it("gives each entry the route file whose URLs it serves, and shadows none", () => {
    for (const route of routes) {
      expect(fileShape(route.next).test(sample(route.path)), `${route.path} in ${route.next}`).toBe(true);
      expect(findRoute(sample(route.path))?.route, route.path).toBe(route);
    }
    expect(findRoute("/decide/abc/submit")?.params).toEqual({ token: "abc" });
    for (const path of ["/", "/events", "/decide/abc", "/_next/static/x.js", "/mcp/x", "/api/v1"]) expect(findRoute(path), path).toBeUndefined();
  });

  it("is dispatched by the fast path entry by entry, answering as the Next route does, and leaves other paths to Next", async () => {
    for (const route of routes) {
      const url = `${base}${sample(route.path)}?q=1`;
      const fast = await fetch(url);
      const viaNext = await nextHandler(new Request(url));
      const [a, b] = [
        [fast.status, await fast.text()],
        [viaNext.status, await viaNext.text()],
      ];
      expect(a[0], route.path).not.toBe(599);
      expect(a, route.path).toEqual(b);
    }
    expect((await fetch(`${base}/events`)).status).toBe(599);
  });
});
