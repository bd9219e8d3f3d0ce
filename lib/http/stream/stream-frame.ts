import type { StreamPosition } from "@/lib/http/stream/statements";

/**
 * One frame of the live stream, serialised once however many sockets it goes to: `type` is the frame's kind (the
 * SSE event name), `json` its text, `id` the mail event id (the SSE `id:` a reconnecting EventSource resumes from)
 * and `pos` the mail event's place in stream order (statements.ts).
 */
export interface StreamFrame {
  readonly type: string;
  readonly json: string;
  readonly id?: string;
  readonly pos?: StreamPosition;
  /** The UTF-8 bytes, made by the first WebSocket that sends the frame and reused by the rest. */
  bytes?: Buffer;
}

export function frame(body: { type: string } & Record<string, unknown>, at?: { id: string; pos: StreamPosition }): StreamFrame {
  return { type: body.type, json: JSON.stringify(body), id: at?.id, pos: at?.pos };
}

/** `{type: "error", code, message, fix}`: a frame the client got wrong, answered on a socket that stays open. */
export function errorFrame(code: string, message: string, fix?: string): StreamFrame {
  return frame({ type: "error", code, message, ...(fix ? { fix } : {}) });
}
