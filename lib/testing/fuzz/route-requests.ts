import fc from "fast-check";
import { API_PREFIX } from "@/lib/tools/adapters/rest";
import { nestedJson, oddString } from "@/lib/testing/fuzz/odd-values";
import type { RawRequest } from "@/lib/testing/fuzz/raw-http";
import { percentEncode } from "@/lib/testing/fuzz/percent-encode";

/**
 * Requests to the HTTP routes outside the tool registry: a path from a route's template with real or odd tokens, then
 * broken on purpose (malformed `%` escapes, dot segments in every spelling, overlong segments, odd queries), with any
 * method, content type, Origin and body.
 */

/** A route's path, `{t}` standing for each segment that carries a token or id. */
export interface RouteTemplate {
  name: string;
  path: string;
  /** The method the route serves, tried half the time so requests get past the method check. */
  method: string;
  /** How often it is picked against the others' 1: routes that write on success deserve more. */
  weight?: number;
  /** Real values for `{t}`, from the test's project: a live source's token, a file link. */
  tokens: string[][];
}

/** Segments that each break a path in their own way; `%2f` hides a slash, `%00` a NUL. */
const ODD_SEGMENTS = [
  "%",
  "%z",
  "%zz",
  "%e0%80",
  "%ff",
  "%c0%af",
  "%ed%a0%80",
  ".",
  "..",
  "%2e",
  "%2E%2e",
  ".%2e",
  "%2e.",
  "",
  "a%2fb",
  "..%2f..",
  "%00",
  "%u0041",
  "a;b",
  "~",
  "%25",
  "%252e%252e",
];

const oddSegment = fc.oneof(
  { arbitrary: fc.constantFrom(...ODD_SEGMENTS), weight: 4 },
  { arbitrary: oddString.map(percentEncode), weight: 2 },
  { arbitrary: fc.constantFrom(2_000, 10_000, 100_000).map((n) => "a".repeat(n)), weight: 1 },
);

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "PROPFIND", "FOO"];
const CONTENT_TYPES = [
  "",
  "application/json",
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-16",
  "multipart/form-data",
  "text/plain",
  "application/octet-stream",
  "*/*",
  "application/json; charset=latin1",
];

const body: fc.Arbitrary<Uint8Array | string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant(""),
  fc.uint8Array({ maxLength: 2_048 }),
  fc.constantFrom(Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), Uint8Array.from([0xc0, 0xaf, 0xed, 0xa0, 0x80])),
  fc.constant(nestedJson(5_000)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom("choice=approve&comment=%zz", "choice=option%3A9", "choice=answer&text=", "a=%&b=%%", "choice=deny&comment=".concat("x".repeat(70_000))),
  fc.constant("x".repeat(1_100_000)),
  // JSON-RPC for /mcp (other routes take it as one more wrong body): valid envelopes with odd methods and params.
  fc
    .record({
      method: fc.constantFrom("tools/call", "tools/list", "initialize", "ping", "notifications/cancelled", "x"),
      params: fc.jsonValue({ maxDepth: 3 }),
    })
    .map(({ method, params }) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })),
);

/** Mcp-Session-Id and MCP-Protocol-Version values that name nothing, or nothing well-formed. */
const mcpHeader = fc.option(fc.constantFrom("x", "%00", "a".repeat(5_000), "' or 1=1 --", "2025-06-18", "1999-01-01", ""), { freq: 3 });

/** A query string that no encoder writes. */
const query = fc.oneof(
  fc.constant(""),
  fc.constantFrom("?", "?a=%zz", "?%=&&=x", "?token=%00", "?a=1&a=2&a[]=3", `?q=${"b".repeat(5_000)}`),
  oddString.map((s) => `?x=${percentEncode(s)}`),
);

/** How the template's path is broken: `intact` keeps it, so real tokens reach the handlers' own checks. */
type PathBreak = { kind: "intact" } | { kind: "insert"; at: number; segment: string } | { kind: "replace"; at: number; segment: string };

const pathBreak: fc.Arbitrary<PathBreak> = fc.oneof(
  { arbitrary: fc.constant({ kind: "intact" as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), segment: oddSegment }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), segment: oddSegment }), weight: 1 },
);

export interface RouteCase {
  route: string;
  request: RawRequest;
}

export function routeRequest(templates: RouteTemplate[], headers: { origin: string; authorization: string }): fc.Arbitrary<RouteCase> {
  return fc
    .record({
      template: fc.oneof(...templates.map((t) => ({ arbitrary: fc.constant(t), weight: t.weight ?? 1 }))),
      tokenPick: fc.nat(),
      // Real tokens two times in three, so requests reach the checks behind the token lookup.
      oddToken: fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: oddSegment, weight: 1 }),
      broken: pathBreak,
      query,
      method: fc.option(fc.constantFrom(...METHODS), { freq: 2 }),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      origin: fc.constantFrom("", headers.origin, "https://evil.example"),
      withKey: fc.boolean(),
      sessionId: mcpHeader,
      protocolVersion: mcpHeader,
      body,
    })
    .map((g) => {
      const tokens = g.template.tokens.length > 0 ? g.template.tokens[g.tokenPick % g.template.tokens.length] : [];
      let i = 0;
      const filled = g.template.path.replace(/\{t\}/g, () => g.oddToken ?? tokens[i++] ?? "x");
      const segments = filled.split("/");
      if (g.broken.kind !== "intact") {
        // Never before the leading empty segment: a path starts with `/`.
        const at = 1 + (g.broken.at % segments.length);
        if (g.broken.kind === "insert") segments.splice(at, 0, g.broken.segment);
        else segments[Math.min(at, segments.length - 1)] = g.broken.segment;
      }
      const h: Record<string, string> = {};
      if (g.contentType) h["content-type"] = g.contentType;
      if (g.origin) h.origin = g.origin;
      // Only /mcp answers at once with a key; a stream with one would stay open.
      if (g.template.name === "mcp") {
        if (g.withKey) h.authorization = headers.authorization;
        if (g.sessionId !== null) h["mcp-session-id"] = g.sessionId;
        if (g.protocolVersion !== null) h["mcp-protocol-version"] = g.protocolVersion;
        h.accept = "application/json, text/event-stream";
      }
      return {
        route: g.template.name,
        request: { method: g.method ?? g.template.method, path: `${segments.join("/")}${g.query}`, headers: h, body: g.body },
      };
    });
}

/**
 * What the path guard must answer 400 to, judged here on its own terms: outside the REST API (which names the
 * parameter a bad escape spoils), a segment with a malformed escape, or one that decodes to `.` or `..`.
 */
export function pathMustBeRefused(pathAndQuery: string): boolean {
  const q = pathAndQuery.indexOf("?");
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  return path.split("/").some((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return !path.startsWith(`${API_PREFIX}/`);
    }
    return decoded === "." || decoded === "..";
  });
}
