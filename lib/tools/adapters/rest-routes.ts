import type { OwnerRoute } from "@/lib/owner-api/define-owner-route";
import { ownerRoutes } from "@/lib/owner-api/owner-routes";
import type { AnyTool } from "@/lib/tools/run-tool";
import { tools } from "@/lib/tools/registry";
import { AppError } from "@/lib/errors";
import { onTransport } from "@/lib/tools/define-tool";

export type RestRoute =
  /** `alias`: one of the tool's `rest.aliases`, served but not documented again in OpenAPI. */
  | { kind: "tool"; method: string; path: string; pattern: RegExp; params: string[]; tool: AnyTool; alias: boolean }
  // biome-ignore lint/suspicious/noExplicitAny: any owner route whatever its schemas, as in owner-routes.ts
  | { kind: "owner"; method: string; path: string; pattern: RegExp; params: string[]; route: OwnerRoute<any, any, any> };

/**
 * `/kv/{key}` → a regex. A parameter that ends the path takes the rest of it, slashes included (`/files/{path}`
 * serves `reports/2026/09.pdf`); others stop at `/`.
 */
function compile(path: string) {
  const params: string[] = [];
  const segments = path.split("/").filter(Boolean);
  const source = segments
    .map((seg, i) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (!m) return `/${seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      params.push(m[1]);
      return i === segments.length - 1 ? "/(.+)" : "/([^/]+)";
    })
    .join("");
  return { pattern: new RegExp(`^${source}/?$`), params };
}

/**
 * Deeper routes first, since a path's last parameter takes the rest of the path: `/threads/{thread_id}` would
 * otherwise swallow `/threads/thr_1/attachments/att_2`. Among routes as deep, literal before parameterised, so
 * `/events/wait` wins over `/events/{event_id}`.
 */
const depth = (path: string) => path.split("/").filter(Boolean).length;
export const restRoutes: RestRoute[] = [
  ...tools
    .filter((tool) => onTransport(tool, "rest"))
    .flatMap((tool) =>
      [tool.rest.path, ...(tool.rest.aliases ?? [])].map((path) => ({
        kind: "tool" as const,
        method: tool.rest.method,
        path,
        tool,
        alias: path !== tool.rest.path,
        ...compile(path),
      })),
    ),
  ...ownerRoutes.map((route) => ({ kind: "owner" as const, method: route.rest.method, path: route.rest.path, route, ...compile(route.rest.path) })),
].sort((a, b) => depth(b.path) - depth(a.path) || a.params.length - b.params.length || b.path.length - a.path.length);

export function matchRoute(method: string, path: string) {
  let pathMatched = false;
  for (const route of restRoutes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    route.params.forEach((name, i) => (params[name] = decodeParam(name, m[i + 1])));
    return { route, params, pathMatched: true };
  }
  return { route: null, params: null, pathMatched };
}

/** A malformed escape (`%zz`) in a path parameter is the caller's error, not a 500. */
function decodeParam(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError("validation_error", `${name}: is not valid percent-encoded UTF-8 in the URL path.`, {
      fix: `Percent-encode ${name} as UTF-8 (encodeURIComponent).`,
      details: [{ field: name, message: "is not valid percent-encoded UTF-8" }],
    });
  }
}
