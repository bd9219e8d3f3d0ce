import type { Actor } from "@/lib/actor";
import { type Credential, type CredentialEnd, untilCredentialEnds } from "@/lib/auth/credential-ends";
import { restrictionDeleted } from "@/lib/keys/key-restrictions";
import { getDb } from "@/lib/db/client";
import { AppError, toErrorBody } from "@/lib/errors";
import { takeCallToken } from "@/lib/keys/call-rate-limit";
import { withCallSlot } from "@/lib/keys/call-slots";
import { appendEntry } from "@/lib/ledger/append-entry";
import { fitWithin, type FittedResult } from "@/lib/tools/result-budget";
import { keyMayUse, scopesOf, toolOp, type ToolContext, type ToolDefinition } from "@/lib/tools/define-tool";
import { callerCasedError, parseToolArgs, toolResult } from "@/lib/tools/casing/tool-casing";
import { claimIdempotencyKey, completeIdempotencyKey } from "@/lib/tools/idempotency/idempotent-call";
import { committedError } from "@/lib/tools/tool-error";

// biome-ignore lint/suspicious/noExplicitAny: any tool whatever its schemas; ToolDefinition's defaults would refuse them (the handler takes I's output)
export type AnyTool = ToolDefinition<any, any>;

/** A tool call's output and its JSON text: the REST body, the MCP text content, and what the ledger digests. */
export interface ToolResult {
  output: unknown;
  text: string;
  /** The checked output in the tool's own casing (before snake_case and the budget), for REST's `respond`. */
  value: unknown;
}

/**
 * The one pipeline from a transport to a handler: per-key call limit → scope check → input parse (in the caller's
 * casing) → scopes the input needs → handler (in a transaction) → output check → the caller's casing → MCP result
 * budget → ledger entry (same transaction). Authentication happened in the adapter, which built
 * the actor. A refused or failed call writes nothing; an error the handler returns with `toolError` commits (D6).
 * A tool with `idempotencyKey` replays a finished call's answer to its retries (idempotency/idempotent-call.ts).
 * The output is serialized once, here: the entry's output digest is the SHA-256 of the very text the caller
 * receives, so anyone holding a response can match it to its entry.
 */
export async function runTool(tool: AnyTool, actor: Actor, args: unknown, signal: AbortSignal): Promise<ToolResult> {
  // Every key's call passes here, over REST and MCP alike, so the per-key limit is counted here, refused calls
  // included. MCP's protocol messages (initialize, tools/list, ping) are not calls: a client sends them once a session.
  if (actor.type === "key" && actor.keyId) takeCallToken(actor.keyId);
  if (!keyMayUse(tool, actor.scopes)) throw missingScopes(tool.name, scopesOf(tool));
  if (actor.mailboxDeleted && tool.name !== "whoami") throw restrictionDeleted(tool.name);
  // Owner REST and key REST write snake_case for the mailbox family; MCP, the dashboard and jobs write camelCase.
  const transport = actor.via === "rest" ? "rest" : "mcp";
  const input = parseToolArgs(tool, transport, args ?? {});
  const extra = tool.extraScopes?.(input).filter((s: string) => !actor.scopes.includes(s));
  if (extra?.length) throw missingScopes(tool.name, extra, " with these arguments");
  const db = await getDb();
  const budget = actor.via === "mcp" ? tool.mcpBudget : undefined;
  const idempotencyKey = tool.idempotencyKey ? (input as { idempotencyKey?: string }).idempotencyKey : undefined;
  // What the entry digests: the input, or the part of it that holds no secret (a header's token).
  const ledgered = tool.ledgerInput ? tool.ledgerInput(input) : input;
  const call = async (ctx: ToolContext): Promise<ToolResult | { error: AppError }> => {
    if (idempotencyKey) {
      const stored = await claimIdempotencyKey(ctx.db, { actor, key: idempotencyKey, tool: tool.name, input });
      if (stored) {
        // A retry: the first call's answer, byte for byte, recorded as this call's output under its subject.
        const text = "error" in stored ? JSON.stringify(toErrorBody(stored.error).body) : stored.text;
        await appendEntry(ctx.db, { actor: ctx.actor, op: toolOp(tool), subject: stored.subject, input: ledgered, outputText: text });
        if ("error" in stored) return stored;
        const output = JSON.parse(text) as unknown;
        return { output, text, value: output };
      }
    }
    const result = await tool.handler(ctx, input);
    // What the wait found is not told to a key revoked meanwhile; what the call wrote before it waited (a request
    // asked, mail held) stands and is ledgered with the refusal, as a committed error is. A key gone with its
    // project has no ledger left to write to.
    const ended = waiting ? await waiting.ended() : null;
    const refusal = waiting && ended ? endedWhileWaiting(waiting.credential, ended, tool.name) : null;
    if (refusal && ended === "gone") throw refusal;
    const error = refusal ?? committedError(result);
    if (error) {
      // D6: what the handler wrote commits; the ledger digests the error the caller receives.
      await appendAfterWork(ctx.db, {
        actor: ctx.actor,
        op: toolOp(tool),
        subject: ctx.subject,
        input: ledgered,
        outputText: JSON.stringify(toErrorBody(error).body),
      });
      if (idempotencyKey) await completeIdempotencyKey(ctx.db, { actor, key: idempotencyKey, answer: { error }, subject: ctx.subject });
      return { error };
    }
    let checked = checkOutput(tool, result);
    let shown = toolResult(tool, checked) as Record<string, unknown>;
    let fitted: FittedResult = { output: shown, text: JSON.stringify(shown) ?? "null" };
    // The budget runs before the digest, so the entry matches the shortened text the MCP caller receives.
    for (let reads = 1; budget; reads++) {
      const fit = fitWithin(shown, { fix: budget.fix(input, checked), content: ctx.content ?? { prefix: null, cut: [] } });
      if (!("reread" in fit)) {
        fitted = fit;
        break;
      }
      // A rung that could fit needs more of the content than this read took; a third read takes all of it (if the
      // data changed between reads), and a read of everything never asks again.
      ctx.content = { prefix: reads >= 2 ? null : fit.reread, cut: [] };
      checked = checkOutput(tool, await tool.handler(ctx, input));
      shown = toolResult(tool, checked) as Record<string, unknown>;
    }
    const outputText = tool.ledgerOutput ? JSON.stringify(tool.ledgerOutput(checked)) : fitted.text;
    await appendAfterWork(ctx.db, { actor: ctx.actor, op: toolOp(tool), subject: ctx.subject, input: ledgered, outputText });
    if (idempotencyKey) await completeIdempotencyKey(ctx.db, { actor, key: idempotencyKey, answer: { text: fitted.text }, subject: ctx.subject });
    return { ...fitted, value: checked };
  };
  /**
   * The entry of a tool that waits is written after its work committed on its own (a request asked, mail queued, a
   * link made). Failing the call then told the caller "retry" about work done, and the retry did it again (a second
   * email, a second request; helper-108): the entry is retried, and if the database still refuses it the caller is
   * told what happened all the same and the loss is logged. In a transaction the entry commits with the work.
   */
  const appendAfterWork = async (tx: ToolContext["db"], entry: Parameters<typeof appendEntry>[1]) => {
    if (tool.transaction !== false || tool.annotations.readOnlyHint) return appendEntry(tx, entry);
    for (let attempt = 1; ; attempt++) {
      try {
        return await appendEntry(tx, entry);
      } catch (err) {
        if (attempt === COMMITTED_ENTRY_ATTEMPTS) {
          console.error(`[brynth] ${tool.name}: its work committed but its ledger entry could not be written`, { subject: entry.subject, err });
          return;
        }
        await new Promise((r) => setTimeout(r, 250 * attempt));
      }
    }
  };
  // A waiting call stops waiting once its key, grant or session ends (credential-ends.ts), as a live stream closes.
  const waiting = tool.waits ? untilCredentialEnds(actor, signal) : null;
  const context = (tx: ToolContext["db"]): ToolContext => {
    const prefix = budget?.prefix?.(input);
    return { actor, db: tx, signal: waiting?.signal ?? signal, subject: null, ...(prefix === undefined ? {} : { content: { prefix, cut: [] } }) };
  };

  // Reads and waiting tools run outside a transaction; their entry is then one INSERT, atomic on its own.
  const run = () => (tool.transaction === false || tool.annotations.readOnlyHint ? call(context(db)) : db.transaction((tx) => call(context(tx))));
  try {
    // A key's calls take turns for the database (call-slots.ts); a waiting call gives its turn back as it waits.
    const out = actor.type === "key" && actor.keyId ? await withCallSlot(actor.keyId, signal, run) : await run();
    if ("error" in out) throw out.error;
    return out;
  } catch (err) {
    throw callerCasedError(tool, transport, err);
  } finally {
    waiting?.unwatch();
  }
}

/** Tries of a waiting tool's entry after its work committed: about 0.75 s of waits in all. */
const COMMITTED_ENTRY_ATTEMPTS = 3;

const ENDED_FIX: Record<Credential, string> = {
  key: "Ask the owner for a key that is not revoked.",
  "OAuth grant": "Connect the client again: the owner revoked its access.",
  session: "Sign in again.",
};

const endedWhileWaiting = (credential: Credential, why: CredentialEnd, tool: string) =>
  why === "mailbox"
    ? restrictionDeleted(tool)
    : new AppError(
        "unauthorized",
        `This ${credential} ${why === "gone" ? "went with its deleted project" : credential === "session" ? "ended" : "was revoked"} while the call waited.`,
        { fix: ENDED_FIX[credential] },
      );

function missingScopes(name: string, scopes: readonly string[], why = ""): AppError {
  const list = scopes.map((s) => `\`${s}\``).join(" and ");
  return new AppError("missing_permission", `This key may not call ${name}${why}: it needs ${list}.`, {
    fix: `Use a key with the scope ${list} (API keys screen).`,
    details: { scopes },
  });
}

/** structuredContent must match outputSchema: a mismatch is our bug, loud in tests, logged in production. */
function checkOutput(tool: AnyTool, output: unknown): unknown {
  const parsed = tool.output.safeParse(output);
  if (parsed.success) return parsed.data;
  if (process.env.NODE_ENV !== "production") {
    throw new Error(`${tool.name} returned output that does not match its schema: ${parsed.error.message}`);
  }
  console.error(`[brynth] ${tool.name} output does not match its schema`, parsed.error.issues);
  return output;
}
