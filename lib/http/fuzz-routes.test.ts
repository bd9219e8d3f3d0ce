import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedSource } from "@/lib/testing/events";
import { seedProject } from "@/lib/testing/seed";
import { assertFuzz, FUZZ_RUNS, FUZZ_TEST_TIMEOUT_MS } from "@/lib/testing/fuzz/fuzz-settings";
import { fuzzSummary } from "@/lib/testing/fuzz/fuzz-summary";
import { watchProcessFaults } from "@/lib/testing/fuzz/process-faults";
import { changedTables, projectFingerprint } from "@/lib/testing/fuzz/project-fingerprint";
import { rawHttp } from "@/lib/testing/fuzz/raw-http";
import { pathMustBeRefused, routeRequest, type RouteTemplate } from "@/lib/testing/fuzz/route-requests";

/**
 * Every HTTP route outside the tool registry (routes.ts: webhook intake and payloads, blobs and file links, the
 * emailed decision and verification forms, mail HTML, Telegram, the live streams, /mcp's transport), plus paths
 * that only Next serves (/api/auth, the /decide and /verify pages, the dashboard): next-auth and the pages need a
 * Next server, which Vitest does not run, so for them this covers the path layer that runs before Next in server.ts
 * (fast-path.ts → path-guard.ts); the test server answers 404 where Next would take over.
 * Property, for every request: an answer that is not a 5xx (no transport failure either); a path with a malformed
 * escape or a dot segment is refused with 400 before any route sees it; nothing unhandled or logged as unexpected;
 * and no row of the project changes, except by a webhook delivery the intake accepted or a download served (2xx),
 * or the refusal counter a refused delivery bumps (intake_refusals),
 * checked on every request against the project's fingerprint.
 */

let server: Awaited<ReturnType<typeof startApiServer>>;
let projectId: string;
let templates: RouteTemplate[];
let secret: string;
const faults = watchProcessFaults();
const summary = fuzzSummary("routes");

beforeAll(async () => {
  server = await startApiServer();
  const seeded = await seedProject();
  projectId = seeded.project.id;
  secret = seeded.secret;
  const token = (url: string | null) => new URL(url ?? "http://x/").pathname.split("/").pop() ?? "";
  const open = token((await seedSource(seeded.actor, { name: "open" })).url);
  const signed = token((await seedSource(seeded.actor, { name: "signed", verification: "hmac_sha256", secret: "fuzz-secret-0123" })).url);
  const link = await fileLink(seeded.secret);
  const wellShaped = "A".repeat(43);
  templates = [
    { name: "hook", method: "POST", path: "/hooks/{t}", weight: 4, tokens: [[open], [signed], [wellShaped]] },
    { name: "payload", method: "GET", path: "/hooks/payloads/{t}", tokens: [[wellShaped]] },
    { name: "blob link", method: "GET", path: "/blob/link/{t}/{t}", weight: 2, tokens: [link, ["lnk_x", wellShaped]] },
    { name: "blob download", method: "GET", path: "/blob/download/{t}", tokens: [[`${wellShaped}.${wellShaped}`]] },
    { name: "blob upload", method: "PUT", path: "/blob/upload/{t}", tokens: [[`${wellShaped}.${wellShaped}`]] },
    { name: "decide submit", method: "POST", path: "/decide/{t}/submit", tokens: [["A1".repeat(16)]] },
    { name: "verify confirm", method: "POST", path: "/verify/{t}/confirm", tokens: [["A1".repeat(16)]] },
    { name: "mail html", method: "GET", path: "/mail-html/{t}", tokens: [[wellShaped]] },
    { name: "telegram", method: "POST", path: "/telegram/{t}", tokens: [[wellShaped]] },
    { name: "event stream", method: "GET", path: "/api/v1/stream", tokens: [] },
    { name: "approvals stream", method: "GET", path: "/api/v1/approvals/stream", tokens: [] },
    { name: "mcp", method: "POST", path: "/mcp", weight: 2, tokens: [] },
    { name: "auth (Next)", method: "POST", path: "/api/auth/{t}", tokens: [["signin"], ["callback"], ["session"], ["csrf"]] },
    { name: "decide page (Next)", method: "GET", path: "/decide/{t}", tokens: [["A1".repeat(16)]] },
    { name: "verify page (Next)", method: "GET", path: "/verify/{t}", tokens: [["A1".repeat(16)]] },
    { name: "dashboard (Next)", method: "GET", path: "/{t}", tokens: [["ledger"], ["events"], ["login"]] },
  ];
});
afterAll(async () => {
  faults.stop();
  summary.write();
  await server?.close();
});

/** A public link to a real file (`[link id, signature]`), so link requests reach a live link's checks. */
async function fileLink(key: string): Promise<string[]> {
  const call = (method: string, path: string, body: unknown) =>
    fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  expect((await call("PUT", "/files/fuzz/a.txt", { content_base64: "aGVsbG8=", content_type: "text/plain" })).status).toBe(200);
  const made = await (await call("POST", "/file-urls", { path: "fuzz/a.txt", wait_seconds: 0 })).json();
  const parts = new URL(made.url).pathname.split("/");
  return parts.slice(-2);
}

/** Requests whose success writes on purpose: an accepted webhook delivery, a served download (counted against the quota). */
const WRITING_ROUTES = new Set(["hook", "blob link", "blob download", "blob upload"]);
const writesOnSuccess = (route: string, status: number) => WRITING_ROUTES.has(route) && status >= 200 && status < 300;
/** A delivery the intake refuses for its signature (401) or a removed source (404) is counted for the owner's Overview, and nothing else. */
const countsRefusal = (route: string, status: number, table: string) => route === "hook" && (status === 401 || status === 404) && table === "intake_refusals";

it(
  "answers every malformed path, method, content type and body without a 5xx, and refused requests write nothing",
  async () => {
    const property = fc.asyncProperty(routeRequest(templates, { origin: server.url, authorization: `Bearer ${secret}` }), async ({ route, request }) => {
      const before = await projectFingerprint(projectId);
      const where = `${request.method} ${request.path.slice(0, 300)} (${route}, content-type ${request.headers?.["content-type"] || "none"})`;
      let status: number;
      let body: string;
      try {
        ({ status, body } = await rawHttp(server.url, request));
      } catch (err) {
        throw new Error(`${where}: transport failure: ${(err as Error).message}`);
      }
      const seen = faults.take();
      if (seen.length > 0) throw new Error(`${where}: answered ${status}, and the server process reported ${seen.join("; ")}`);
      summary.count(route, "http", status >= 400);
      if (status >= 500) throw new Error(`${where}: HTTP ${status} ${body.slice(0, 300)}`);
      // Node's own parser refuses a path over its header limit (431) before any of our code: nothing to judge.
      if (status !== 431 && pathMustBeRefused(request.path) && status !== 400) {
        throw new Error(`${where}: a malformed escape or dot segment answered ${status}, not 400: ${body.slice(0, 300)}`);
      }
      if (!writesOnSuccess(route, status)) {
        const changed = changedTables(before, await projectFingerprint(projectId)).filter((table) => !countsRefusal(route, status, table));
        if (changed.length > 0) throw new Error(`${where}: answered ${status} but changed rows of ${changed.join(", ")}`);
      }
    });
    // One property for all routes, and each request is cheap: as many runs as the tool suite spends on two dozen tools.
    await assertFuzz("the HTTP routes", property, FUZZ_RUNS * 24);
    const alive = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } });
    expect(alive.status).toBe(200);
  },
  FUZZ_TEST_TIMEOUT_MS,
);
