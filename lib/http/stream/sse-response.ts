import type { FrameSink } from "@/lib/http/stream/stream-session";
import { onStopping } from "@/lib/services/server-stopping";

const KEEPALIVE_MS = 15_000;
/** Room for what a slow client has not read yet: backlog() counts against it (the session closes past its own cap). */
const QUEUE_BYTES = 8 << 20;

/**
 * A live Server-Sent Events response: `open` receives a sink of frames (each one `event: <type>`, `id: <event id>`
 * for mail events, `data: <json>`) and returns its stop; the stream keeps idle proxies open with comments and ends
 * when the client goes away. Its first bytes (`: stream open`) are written once `open` has resolved, so a client
 * that has read them misses nothing sent after. A process that begins to stop ends it cleanly: SSE has no close
 * codes, and an EventSource reconnects after the `retry` it was given, resuming from its Last-Event-ID.
 */
export function sseFrames(signal: AbortSignal, open: (sink: FrameSink) => Promise<() => void>): Response {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const write = (s: string) => {
    try {
      controller.enqueue(encoder.encode(s));
    } catch {
      cleanup();
    }
  };
  const sink: FrameSink = {
    send: (f) => write(`event: ${f.type}\n${f.id ? `id: ${f.id}\n` : ""}data: ${f.json}\n\n`),
    backlog: () => QUEUE_BYTES - (controller.desiredSize ?? QUEUE_BYTES),
    close: () => cleanup(),
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async start(c) {
        controller = c;
        const stop = await open(sink);
        write("retry: 3000\n: stream open\n\n");
        const timer = setInterval(() => write(": keep-alive\n\n"), KEEPALIVE_MS);
        let offStopping = () => {};
        cleanup = () => {
          cleanup = () => {};
          clearInterval(timer);
          offStopping();
          stop();
          try {
            controller.close();
          } catch {}
        };
        if (signal.aborted) return cleanup();
        signal.addEventListener("abort", () => cleanup(), { once: true });
        offStopping = onStopping(() => cleanup());
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk.byteLength },
  );
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
}

/**
 * An SSE response of plain `event`/`data` messages (the approvals stream): `subscribe` gets `send` and `close` (ends
 * the stream from the server's side) and returns its stop.
 */
export function sseResponse(
  signal: AbortSignal,
  subscribe: (send: (event: string, data: unknown) => void, close: FrameSink["close"]) => Promise<() => void>,
): Response {
  return sseFrames(signal, (sink) =>
    subscribe(
      (event, data) => sink.send({ type: event, json: JSON.stringify(data) }),
      (code, reason) => sink.close(code, reason),
    ),
  );
}
