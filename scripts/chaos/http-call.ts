/** An answer, or status 0 when none came (refused, reset, timed out): faults are counted, never thrown. */
export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the load reads a few known fields of Brynth's JSON answers
  body: any;
  error?: string;
}

/** The slowest call of the run that got an answer, in ms: a stall (a pool waiting to reconnect, a held lock) shows here. */
export const slowest = { ms: 0, call: "" };

/** One HTTP call with a deadline, its JSON body parsed when there is one. */
export async function call(
  method: string,
  url: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(payload === undefined ? {} : { "content-type": "application/json" }), ...opts.headers },
      body: payload,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (a proxy or crash page): kept as text for the message
    }
    const ms = Math.round(performance.now() - started);
    if (ms > slowest.ms) Object.assign(slowest, { ms, call: `${method} ${new URL(url).pathname} (${res.status})` });
    return { status: res.status, body };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { status: 0, body: null, error: cause ?? (err as Error).name };
  }
}

/** Counts outcomes by label (`200`, `502`, `ECONNRESET`…), for the report. */
export function outcomes() {
  const counts: Record<string, number> = {};
  return {
    counts,
    add: (a: Answer | string) => {
      const label = typeof a === "string" ? a : a.status === 0 ? (a.error ?? "no_answer") : String(a.status);
      counts[label] = (counts[label] ?? 0) + 1;
    },
  };
}
