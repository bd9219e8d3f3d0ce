import { env } from "@/lib/env";

/** The address failures are throttled by. X-Forwarded-For only counts behind a configured proxy. */
export function clientIp(req: Request): string {
  if (env().TRUST_PROXY) {
    const fwd = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (fwd) return fwd;
  }
  return req.headers.get("x-brynth-remote-address") ?? "unknown";
}

/**
 * Origins a browser may call us from: the public URL, localhost on our port, and ALLOWED_ORIGINS. A request's own
 * Host is deliberately not trusted: under DNS rebinding the attacker's name points at us and Host matches Origin.
 */
export function isAllowedOrigin(origin: string | null): boolean {
  if (!origin) return true;
  const e = env();
  const allowed = new Set([
    new URL(e.publicUrl).origin,
    `http://localhost:${e.PORT}`,
    `http://127.0.0.1:${e.PORT}`,
    ...e.ALLOWED_ORIGINS,
  ]);
  return allowed.has(origin);
}
