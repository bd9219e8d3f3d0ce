import { afterAll, beforeAll } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { resetEnvCache } from "@/lib/env";
import { startSink } from "@/lib/mail/__tests__/helpers";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { mcpCall, type ToolResult } from "@/lib/tools/events/__tests__/tool-client";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { ledgeredTransaction } from "@/lib/ledger/ledgered-transaction";
import type { PersonVerdict } from "@/lib/approvals/person-verdict";
import { applyPolicy } from "@/lib/policy/apply-policy";
import { parsePolicy } from "@/lib/policy/parse-policy";

/** A real API server, a project with a full key, and an MCP client; plus owner-side helpers. */
export function approvalsHarness() {
  const h = {} as {
    url: string;
    seeded: Awaited<ReturnType<typeof seedProject>>;
    client: Client;
    close: () => Promise<void>;
  };
  beforeAll(async () => {
    const server = await startApiServer();
    h.url = server.url;
    h.seeded = await seedProject();
    h.client = (await connectMcp(server.url, h.seeded.secret)).client;
    h.close = async () => {
      await h.client.close();
      await server.close();
    };
  });
  afterAll(async () => h.close?.());

  const call = (name: string, args: Record<string, unknown> = {}) => mcpCall(h.client, name, args);
  // As the Approvals screen decides: through the owner pipeline, which ledgers the decision.
  const decide = async (requestId: string, verdict: PersonVerdict) =>
    ledgeredTransaction(await getDb(), { actor: h.seeded.actor, op: DECIDE_OP, input: { requestId, verdict } }, (tx, entry) => {
      entry.subject = requestId;
      return decideAsOwner(tx, { actor: h.seeded.actor, requestId, verdict });
    });
  const setPolicy = async (rules: unknown[]) =>
    (await getDb()).transaction((tx) =>
      applyPolicy(tx, { actor: h.seeded.actor, policy: parsePolicy({ rules }), proposedBy: "test", approvedBy: "owner:test", approvedVia: "dashboard" }),
    );
  const resolvedEvents = async () =>
    (await getDb())
      .select()
      .from(events)
      .where(and(eq(events.projectId, h.seeded.project.id), eq(events.type, "request.resolved")));
  return { h, call, decide, setPolicy, resolvedEvents };
}

/** An SMTP sink set as the instance's relay for a file's tests (mail to outside addresses lands there), closed after. */
export function relaySink() {
  const sink = {} as Awaited<ReturnType<typeof startSink>>;
  const before = process.env.SMTP_RELAY_URL;
  beforeAll(async () => {
    Object.assign(sink, await startSink());
    process.env.SMTP_RELAY_URL = sink.url;
    resetEnvCache();
  });
  afterAll(async () => {
    closeRelayTransports();
    await sink.close();
    if (before === undefined) delete process.env.SMTP_RELAY_URL;
    else process.env.SMTP_RELAY_URL = before;
    resetEnvCache();
  });
  return sink;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The data of a successful call; a failed one fails the test with its code. */
export function ok(r: ToolResult) {
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.data;
}
