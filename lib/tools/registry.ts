import type { AnyTool } from "@/lib/tools/run-tool";
import { sessionHello } from "@/lib/tools/core/session-hello";
import { whoami } from "@/lib/tools/core/whoami";
import { ledgerQuery } from "@/lib/tools/ledger/ledger-query";
import { ledgerVerify } from "@/lib/tools/ledger/ledger-verify";

/** THE registry: an explicit flat list. MCP, REST, OpenAPI and the contract tests all derive from it. */
export const tools: readonly AnyTool[] = [sessionHello, whoami, ledgerQuery, ledgerVerify];

const byName = new Map(tools.map((t) => [t.name, t]));
export const findTool = (name: string) => byName.get(name);
