const g = globalThis as { __brynthStopping?: AbortController };
const stopping = (): AbortController => (g.__brynthStopping ??= new AbortController());

/**
 * Aborted once this process begins to stop serving (SIGTERM, Ctrl-C; drain-server.ts). What would otherwise hold
 * the shutdown for no gain listens to it: a long-poll ends with its timeout answer (long-poll.ts), and a live
 * stream ends the way its transport tells a client to reconnect (sse-response.ts, ws-stream.ts). On globalThis
 * because Next bundles its own copy of a module that server.ts also imports.
 */
export function serverStopping(): AbortSignal {
  return stopping().signal;
}

/**
 * Runs `fn` once the process begins to stop (at once if it has). Returns the unsubscribe, for what ends before:
 * the process's signal outlives every stream and wait, and would otherwise keep each one's closure.
 */
export function onStopping(fn: () => void): () => void {
  const signal = serverStopping();
  if (signal.aborted) {
    fn();
    return () => {};
  }
  signal.addEventListener("abort", fn, { once: true });
  return () => signal.removeEventListener("abort", fn);
}

export function beginStopping(): void {
  stopping().abort();
}

/** Tests only: a test that stopped a server leaves the next one a process that serves. */
export function resetServerStopping(): void {
  g.__brynthStopping = undefined;
}
