import { sha256Hex } from "@/lib/crypto/hash";

/** JSON with object keys sorted at every level, so equal values always hash alike. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The hash of exactly what a person is shown and approves: the request's text and, for tool calls and policy
 * proposals, the exact action. The ledger records it with the decision; tools re-check it before acting.
 */
export function actionHash(shown: {
  kind: string;
  action: string | null;
  summary: string;
  details: string | null;
  risk: string | null;
  amount: number | null;
  options: string[];
  payload: unknown;
}): string {
  return sha256Hex(stableJson(["brynth-request-v1", shown]));
}
