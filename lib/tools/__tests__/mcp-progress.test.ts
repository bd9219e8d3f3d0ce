import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { connectMcp } from "@/lib/testing/mcp-client";
import { PROGRESS_INTERVAL_MS } from "@/lib/tools/adapters/mcp-response";

/** Longer than the SDK client's default request timeout (60 s): only progress notifications keep the call alive. */
const WAIT_SECONDS = 75;

let server: Awaited<ReturnType<typeof startApiServer>>;
let secret: string;
beforeAll(async () => {
  server = await startApiServer();
  secret = (await seedProject({ scopes: ["inbox:read"] })).secret;
});
afterAll(() => server.close());

describe("notifications/progress", () => {
  it(
    "keeps an SDK client with resetTimeoutOnProgress waiting through a 75 s inbox_wait",
    async () => {
      expect(WAIT_SECONDS * 1000).toBeGreaterThan(DEFAULT_REQUEST_TIMEOUT_MSEC);
      const { client } = await connectMcp(server.url, secret);
      const progress: { progress: number; message?: string }[] = [];
      const res = await client.callTool({ name: "inbox_wait", arguments: { timeout_seconds: WAIT_SECONDS } }, undefined, {
        onprogress: (p) => progress.push(p),
        resetTimeoutOnProgress: true,
      });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual({ event: null });
      // One about every interval until the result, each further along than the last.
      // (the last tick and the result both fall at 75 s, so that one may come either side of it).
      const ticks = Math.floor((WAIT_SECONDS * 1000) / PROGRESS_INTERVAL_MS);
      expect(progress.length).toBeGreaterThanOrEqual(ticks - 1);
      expect(progress.length).toBeLessThanOrEqual(ticks);
      expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
      expect(new Set(progress.map((p) => p.progress)).size).toBe(progress.length);
      await client.close();
    },
    WAIT_SECONDS * 1000 + 45_000,
  );
});
