/** The read side of request headers; names are case-insensitive. A fetch `Headers` is one. */
export type HeaderReader = Pick<Headers, "get">;

/**
 * What an HTTP handler may read of its request, and nothing more. Both ways in satisfy it without pretending to be
 * anything else: the fast path builds it from Node's request (node-request.ts), and the fetch `Request` Next hands a
 * route file already is one.
 */
export interface ApiRequest {
  readonly method: string;
  /** Absolute, with the query. */
  readonly url: string;
  readonly headers: HeaderReader;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** The body as a stream, or null without one; read it through read-body.ts, which enforces size limits. */
  readonly body: ReadableStream<Uint8Array> | null;
  /** The whole body when the way in read it before dispatch (the fast path does for small ones): no stream to pump. */
  readonly bufferedBody?: Uint8Array;
}

/** A handler of one entry of the route table (routes.ts); `params` are the entry's named path segments. */
export type ApiHandler = (req: ApiRequest, params: Record<string, string>) => Promise<Response>;
