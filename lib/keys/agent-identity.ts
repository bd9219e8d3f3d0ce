export const platforms = ["claude-code", "codex", "agentforce", "polyant", "custom", "unknown"] as const;
export type Platform = (typeof platforms)[number];

/** The spec's rule: platforms outside the list are stored as `custom`. */
export const normalisePlatform = (p: string): Platform => ((platforms as readonly string[]).includes(p) ? (p as Platform) : "custom");

/**
 * Who the ledger says acted: the per-request X-Brynth-* headers win, then what session_hello stored, then the MCP
 * clientInfo name.
 */
export function resolveIdentity(
  headers: Pick<Headers, "get">,
  session?: { agent: string | null; platform: string | null; clientName: string | null } | null,
): { agent: string | null; platform: string | null; source: "headers" | "session_hello" | "client_info" | "none" } {
  const hAgent = headers.get("x-brynth-agent")?.trim().slice(0, 200) || null;
  const hPlatform = headers.get("x-brynth-platform")?.trim() || null;
  if (hAgent) return { agent: hAgent, platform: hPlatform ? normalisePlatform(hPlatform) : "unknown", source: "headers" };
  if (session?.agent) return { agent: session.agent, platform: session.platform, source: "session_hello" };
  if (session?.clientName) return { agent: session.clientName, platform: hPlatform ? normalisePlatform(hPlatform) : "unknown", source: "client_info" };
  return { agent: null, platform: hPlatform ? normalisePlatform(hPlatform) : null, source: "none" };
}
