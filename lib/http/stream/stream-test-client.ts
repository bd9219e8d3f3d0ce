import WebSocket from "ws";

const open = new Set<WebSocket>();

/** Ends every socket a test left open (an open upgraded socket holds its server's close()). */
export function closeAllSockets(): void {
  for (const ws of open) ws.terminate();
  open.clear();
}

export type Frame = { type: string } & Record<string, unknown>;

/**
 * A `ws` client of /api/v1/stream for tests and benches: every frame it receives, in order, and a wait for the
 * next one matching a predicate (no deadline of its own: the test's timeout ends a wait that never ends).
 */
export async function streamSocket(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/api/v1/stream`, { headers });
  open.add(ws);
  ws.on("close", () => open.delete(ws));
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; from: number; resolve: (f: Frame) => void }[] = [];
  let closed: { code: number; reason: string } | null = null;
  ws.on("message", (data) => {
    const f = JSON.parse(String(data)) as Frame;
    frames.push(f);
    for (const w of [...waiters]) {
      if (w.match(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
    }
  });
  ws.on("close", (code, reason) => {
    closed = { code, reason: String(reason) };
  });
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  return {
    ws,
    frames,
    closed: () => closed,
    send: (frame: unknown) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    /** The first frame received from index `from` on (already, or still to come) that matches. */
    next(match: (f: Frame) => boolean, from = 0): Promise<Frame> {
      const seen = frames.slice(from).find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, from, resolve }));
    },
    /** Sends a subscribe frame and resolves with its answer (`subscribed` or `error`). */
    async subscribe(body: Record<string, unknown> = {}): Promise<Frame> {
      const from = frames.length;
      ws.send(JSON.stringify({ type: "subscribe", ...body }));
      return this.next((f) => f.type === "subscribed" || f.type === "error", from);
    },
    events: () => frames.filter((f) => f.type === "event"),
    close: () => ws.close(),
  };
}

/** A status an upgrade was refused with (101 when it was not). */
export function upgradeStatus(url: string, headers: Record<string, string> = {}, query = ""): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/api/v1/stream${query}`, { headers });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("open", () => {
      resolve(101);
      ws.close();
    });
    ws.on("error", () => {});
  });
}
