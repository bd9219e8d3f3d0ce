import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { sha256Hex } from "@/lib/crypto/hash";
import { AppError, type ErrorBody } from "@/lib/errors";
import { stableJson } from "@/lib/json/stable-json";
import { claimKey, completeKey, storedKey } from "@/lib/tools/idempotency/statements";

/** What a first call answered, replayed to its retries: its JSON text, or the error that committed. */
export type StoredAnswer = { text: string } | { error: AppError };
/** A stored answer, with the first call's ledger subject for its retries' entries. */
export type Replay = StoredAnswer & { subject: string | null };

/**
 * Mailbox spec `idempotencyKey` (REST `Idempotency-Key`, the same key space for one credential): inside the call's transaction, before
 * the handler runs. A fresh key is claimed and the call goes on (`null`); a key a finished call holds gives that
 * call's answer for the same arguments, and CONFLICT for different ones (or another tool). The claim and the answer
 * commit with the call, so a call that failed leaves the key free for its retry.
 */
export async function claimIdempotencyKey(
  tx: Executor,
  o: { actor: Actor; key: string; tool: string; input: Record<string, unknown> },
): Promise<Replay | null> {
  const { idempotencyKey: _key, ...rest } = o.input;
  const hash = sha256Hex(`${o.tool}\n${stableJson(rest)}`);
  const claimed = await claimKey(tx, o.actor.projectId, principalOf(o.actor), o.key, hash, o.tool, o.actor.keyId);
  if (claimed.length > 0) return null;
  const [row] = await storedKey(tx, o.actor.projectId, principalOf(o.actor), o.key);
  if (!row) throw new Error("idempotency key vanished between claim and read");
  if (row.requestHash !== hash) {
    const other = row.tool === o.tool ? "different arguments" : `another tool (${row.tool})`;
    // Worded for both transports (REST sends the key as Idempotency-Key); the field is re-cased for REST callers.
    throw new AppError("CONFLICT", `The idempotency key ${JSON.stringify(o.key)} was used within the last 24 hours for a call with ${other}.`, {
      fix: "Use a new idempotency key for a different send; reuse a key only to retry exactly the same call.",
      details: [{ field: "idempotencyKey", message: "already used for a different call" }],
    });
  }
  if (row.statusCode === 200) return { text: row.responseText, subject: row.subject };
  const body = JSON.parse(row.responseText) as ErrorBody;
  return { error: new AppError(body.code, body.message, { fix: body.fix, details: body.details }), subject: row.subject };
}

/** Records the call's answer (and its ledger subject) under its key, in the call's transaction. */
export async function completeIdempotencyKey(tx: Executor, o: { actor: Actor; key: string; answer: StoredAnswer; subject: string | null }): Promise<void> {
  const { status, text } =
    "error" in o.answer
      ? {
          status: o.answer.error.status,
          text: JSON.stringify({ code: o.answer.error.code, message: o.answer.error.message, fix: o.answer.error.fix, details: o.answer.error.details }),
        }
      : { status: 200, text: o.answer.text };
  await completeKey(tx, o.actor.projectId, principalOf(o.actor), o.key, status, text, o.subject);
}

/** Whose keys these are: the API key (over MCP and REST alike), or the owner. Another key never sees them. */
const principalOf = (actor: Actor) => (actor.keyId ? `key:${actor.keyId}` : `${actor.type}:${actor.id ?? ""}`);
