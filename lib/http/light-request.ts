import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * The fetch `Request` the fast path hands its handlers, read straight off Node's request. Building undici's
 * Request (URL, Headers, AbortController, body stream) costs about 50 µs, an eighth of a short API call, for
 * members a handler mostly never touches. Here method, url, headers, signal and the body are served directly —
 * a small body already read into a Buffer — and anything else (`formData()`, `clone()`, …) builds the real Request
 * on first use and is answered by it, so a handler sees a complete Request either way.
 */
export function lightRequest(req: IncomingMessage, res: ServerResponse, url: string, body: Buffer | "stream" | null): Request {
  let controller: AbortController | undefined;
  let closed = false;
  res.on("close", () => {
    if (res.writableFinished) return;
    closed = true;
    controller?.abort();
  });
  const signal = () => {
    if (!controller) {
      controller = new AbortController();
      if (closed) controller.abort();
    }
    return controller.signal;
  };
  let stream: ReadableStream<Uint8Array> | null | undefined;
  const bodyStream = () =>
    (stream ??=
      body === null ? null : body === "stream" ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : new Blob([body as Uint8Array<ArrayBuffer>]).stream());
  const headers = new NodeHeaders(req.headers) as unknown as Headers;
  let real: Request | undefined;
  const toReal = () =>
    (real ??= new Request(url, {
      method: req.method,
      headers: new Headers(headers),
      signal: signal(),
      body: bodyStream(),
      ...(body === null ? {} : { duplex: "half" }),
    } as RequestInit));
  const bytes = async () => (body instanceof Buffer ? body : Buffer.from(await toReal().arrayBuffer()));

  const own: Record<PropertyKey, unknown> = {
    method: req.method ?? "GET",
    url,
    headers,
    get signal() {
      return signal();
    },
    get body() {
      return bodyStream();
    },
    arrayBuffer: async () => {
      const b = await bytes();
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    },
    bytes: async () => new Uint8Array(await bytes()),
    text: async () => (await bytes()).toString("utf8"),
    json: async () => JSON.parse((await bytes()).toString("utf8")),
    [BUFFERED]: body instanceof Buffer ? body : undefined,
    then: undefined, // not a thenable: resolving a promise with this object must not build the real Request
  };
  return new Proxy(own, {
    get(target, prop) {
      if (prop in target) return target[prop];
      const value = Reflect.get(toReal(), prop) as unknown;
      return typeof value === "function" ? value.bind(real) : value;
    },
  }) as unknown as Request;
}

const BUFFERED = Symbol("brynth.bufferedBody");

/** The body of a light request that was read before its handler ran, if so: no stream to pump. */
export const bufferedBody = (req: Request): Buffer | undefined => (req as unknown as Record<symbol, Buffer | undefined>)[BUFFERED];

/** Node's already parsed headers behind the read-only half of `Headers` (names arrive lower-cased). */
class NodeHeaders {
  constructor(private readonly h: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }
  has(name: string): boolean {
    return this.h[name.toLowerCase()] !== undefined;
  }
  getSetCookie(): string[] {
    return this.h["set-cookie"] ?? [];
  }
  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.h).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }
  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }
  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  forEach(fn: (value: string, name: string, headers: this) => void): void {
    for (const [name, value] of this.entries()) fn(value, name, this);
  }
}
