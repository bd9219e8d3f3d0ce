const KEEPALIVE_MS = 15_000;

/**
 * A live Server-Sent Events response: `subscribe` receives a `send(event, data)` and returns its unsubscribe; the
 * stream keeps idle proxies open with comments and ends when the client goes away. Shared by every live stream.
 * Its first bytes (`: stream open`) are written once `subscribe` has resolved.
 */
export function sseResponse(signal: AbortSignal, subscribe: (send: (event: string, data: unknown) => void) => Promise<() => void>): Response {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (s: string) => {
        try {
          controller.enqueue(encoder.encode(s));
        } catch {
          cleanup();
        }
      };
      const stop = await subscribe((event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      // The first bytes go out once the subscription is live: a client that has read them misses nothing after.
      write("retry: 3000\n: stream open\n\n");
      const timer = setInterval(() => write(": keep-alive\n\n"), KEEPALIVE_MS);
      cleanup = () => {
        clearInterval(timer);
        stop();
        try {
          controller.close();
        } catch {}
      };
      if (signal.aborted) cleanup();
      else signal.addEventListener("abort", () => cleanup(), { once: true });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
}
