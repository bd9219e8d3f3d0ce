import { sha256Hex } from "@/lib/crypto/hash";
import { stableJson } from "@/lib/json/stable-json";

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
