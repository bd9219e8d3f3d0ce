import { getDb } from "@/lib/db/client";
import { z } from "zod";
import { RequestIdSchema, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { changeChannel } from "@/lib/db/change-channel";

/**
 * Calls in progress on this instance, so `notifications/cancelled` can abort the one it names. The cancel is its own
 * POST and may land on another instance: a miss here is published on `mcp_cancel` for the instance that runs it.
 * Keyed by session (a session belongs to one key, checked when it is loaded) and request id: a client can only
 * reach its own calls.
 */
interface Running {
  keyId: string;
  controller: AbortController;
}
const cancelChannel = changeChannel("mcp_cancel", z.object({ session: z.string(), key: z.string(), request: RequestIdSchema }));
const g = globalThis as { __brynthMcpCalls?: Map<string, Running>; __brynthMcpCancelListen?: Promise<unknown> };
const calls = () => (g.__brynthMcpCalls ??= new Map());
// A number id and the same digits as a string are different requests.
const slot = (session: string, request: RequestId) => `${session} ${typeof request} ${request}`;

function abortLocal(session: string, keyId: string, request: RequestId, reason: string): boolean {
  const running = calls().get(slot(session, request));
  if (!running || running.keyId !== keyId) return false;
  running.controller.abort(new Error(reason));
  return true;
}

function listenForCancels() {
  g.__brynthMcpCancelListen ??= cancelChannel
    .subscribe((c) => abortLocal(c.session, c.key, c.request, "cancelled by the client"))
    .catch((err) => {
      g.__brynthMcpCancelListen = undefined;
      console.error("[brynth] cannot listen for MCP cancellations", err);
    });
  return g.__brynthMcpCancelListen;
}

/**
 * Registers a call; its signal aborts on a cancel. `done` must be called when the call ends. Null when the session
 * already runs a call of that id here: a request id is not reused within a session (MCP), and the second would
 * hide the first from cancellation.
 */
export function trackCall(session: string, keyId: string, request: RequestId): { signal: AbortSignal; done: () => void } | null {
  void listenForCancels();
  const key = slot(session, request);
  if (calls().has(key)) return null;
  const running = { keyId, controller: new AbortController() };
  calls().set(key, running);
  return {
    signal: running.controller.signal,
    done: () => {
      if (calls().get(key) === running) calls().delete(key);
    },
  };
}

/** Aborts the named call here, or asks the other instances to. Unknown or finished calls are ignored (spec). */
export function cancelCall(session: string, keyId: string, request: RequestId, reason = "cancelled by the client"): void {
  if (abortLocal(session, keyId, request, reason)) return;
  getDb().then(
    (db) => cancelChannel.notify(db, { session, key: keyId, request }),
    (err: unknown) => console.error("[brynth] cancel not passed on to other instances", err),
  );
}

/** For tests: resolves once this instance listens for cancels published elsewhere. */
export const cancelListenerReady = () => listenForCancels();
